// Why a file could not be read, in the words of an "expected X, got Y" message. A log folder
// or a baseline path can hold anything: a folder, a dangling link, a file of another user.
import { lstatSync } from "node:fs";

function codeOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** "no permission to read it (EACCES)", "a folder (EISDIR)", "a link to nothing (ENOENT)" … */
export function readFailure(path: string, err: unknown, action: "read" | "write" = "read"): string {
  const code = codeOf(err);
  switch (code) {
    case "ENOENT":
      // Listed but not there: the name is a symlink whose target is missing.
      return isLink(path) ? "a link to nothing (ENOENT)" : "no such file (ENOENT)";
    case "EACCES":
    case "EPERM":
      return `no permission to ${action} it (${code})`;
    case "EISDIR":
      return "a folder (EISDIR)";
    case "ELOOP":
      return "a link that loops (ELOOP)";
    case "EROFS":
      return "a read-only file system (EROFS)";
    case "ENOTDIR":
      return "a path through something that is not a folder (ENOTDIR)";
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
