import type { PathResolver, PlatformProfile } from "./api.js";
import { lexicalPath } from "./canonical.js";
import { lookupVar } from "./expand.js";
import { splitPath, type PreparedPath } from "./prepared.js";

// The folders on the server's PATH (docs/decisions/0067): a program a user or an agent later runs
// by name is looked up there, in order, so a file written into one of them replaces or shadows a
// program (`~/.local/bin/git`, `/opt/homebrew/bin/npm`, a `node_modules/.bin` that npx put first).
// On POSIX only an executable file is run, and a write keeps an existing file's mode, so what
// counts there is overwriting an existing entry; on Windows any file whose extension is in
// PATHEXT runs, so every new file counts too. The folder itself, or a folder above it, moved or
// copied into place replaces every program in it.

export interface PathFolder {
  /** The entry as PATH spells it. */
  entry: string;
  /** Absolute, lexically normalised. */
  lexical: string;
  prepared: PreparedPath;
}

/**
 * The absolute folders named by the profile's PATH, in order, without duplicates. Relative and
 * empty entries (the working folder, to a POSIX shell) are left out: counting them would make
 * every write in the project a PATH write (see docs/policy.md, Limits).
 */
export function pathFolders(profile: PlatformProfile): PathFolder[] {
  const value = lookupVar("PATH", profile);
  if (value === undefined || value === "") return [];
  const sep = profile.platform === "win32" ? ";" : ":";
  const out: PathFolder[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(sep)) {
    const entry = profile.platform === "win32" ? raw.replace(/^"(.*)"$/, "$1") : raw;
    if (entry.trim() === "") continue;
    const lex = lexicalPath(entry, profile);
    if (!lex.ok || !lex.wasAbsolute) continue;
    if (seen.has(lex.lexical)) continue;
    seen.add(lex.lexical);
    out.push({ entry, lexical: lex.lexical, prepared: splitPath(lex.lexical, profile.platform) });
  }
  return out;
}

function sameNames(a: PreparedPath, b: PreparedPath, length: number): boolean {
  if (a.root !== b.root) return false;
  for (let i = length - 1; i >= 0; i--) if (a.segments[i] !== b.segments[i]) return false;
  return true;
}

export interface PathFolderHit {
  folder: PathFolder;
  /** `entry`: a file in the folder; `folder`: the folder itself or one above it. */
  what: "entry" | "folder";
}

/**
 * The PATH folder a write to `absolute` (canonical) would change, or undefined: a file directly
 * in it (on POSIX only an existing one: a new file is not executable), or the folder itself.
 * `placed` (a folder moved, copied or unpacked as a whole) also counts a folder above a PATH folder.
 */
export function pathFolderWrite(
  absolute: string,
  folders: readonly PathFolder[],
  profile: PlatformProfile,
  resolver: PathResolver,
  placed = false,
): PathFolderHit | undefined {
  if (folders.length === 0) return undefined;
  const p = splitPath(absolute, profile.platform);
  const n = p.segments.length;
  for (const folder of folders) {
    for (const f of forms(folder, profile, resolver)) {
      const k = f.segments.length;
      if (n === k + 1 && sameNames(p, f, k)) {
        if (profile.platform === "win32" || resolver.exists?.(absolute) !== false)
          return { folder, what: "entry" };
      }
      if (n === k && sameNames(p, f, k)) return { folder, what: "folder" };
      if (placed && n < k && sameNames(f, p, n)) return { folder, what: "folder" };
    }
  }
  return undefined;
}

/** The folder as PATH names it and, when a link, where it really is. */
function forms(folder: PathFolder, profile: PlatformProfile, resolver: PathResolver): PreparedPath[] {
  const real = resolver.anchorRealpath
    ? resolver.anchorRealpath(folder.lexical)
    : resolver.realpath(folder.lexical);
  if (real === undefined || real === folder.lexical) return [folder.prepared];
  return [folder.prepared, splitPath(real, profile.platform)];
}
