/**
 * Finds the program a client would start for `command`, the way a client does: search PATH
 * (and, on Windows, PATHEXT and the current folder), and run Windows batch shims (`npx.cmd`)
 * through `cmd.exe /d /s /c "…"`, because Node 20 refuses to spawn .cmd/.bat files directly.
 * Pure: the file system is asked only through `isFile`.
 */
import { posix, win32 } from "node:path";
import type { Platform } from "../types.js";

export interface ResolveInput {
  platform: Platform;
  command: string;
  args: readonly string[];
  /** The PATH value (undefined when unset). */
  path: string | undefined;
  /** Windows only; defaults to ".COM;.EXE;.BAT;.CMD". */
  pathext?: string | undefined;
  /** Windows only; the shell used for batch files, defaults to "cmd.exe". */
  comspec?: string | undefined;
  cwd: string;
  /** True when `p` names an existing file that may be run. */
  isFile: (p: string) => boolean;
}

export type Resolved =
  | { ok: true; file: string; args: string[]; windowsVerbatimArguments: boolean; resolvedPath: string }
  | { ok: false; reason: string };

const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

export function resolveCommand(input: ResolveInput): Resolved {
  if (input.command === "")
    return { ok: false, reason: "expected a server command after --, got an empty string" };
  return input.platform === "win32" ? resolveWindows(input) : resolvePosix(input);
}

function resolvePosix(input: ResolveInput): Resolved {
  const { command, cwd, isFile } = input;
  if (command.includes("/")) {
    const full = posix.resolve(cwd, command);
    if (isFile(full)) return direct(full, input.args);
    return { ok: false, reason: `${command}: no such executable file (looked at ${full})` };
  }
  for (const dir of (input.path ?? "").split(":")) {
    // An empty PATH entry means the current folder, as in POSIX shells: resolve() skips empty
    // segments, so it lands in cwd.
    const full = posix.resolve(cwd, dir, command);
    if (isFile(full)) return direct(full, input.args);
  }
  return { ok: false, reason: `${command}: command not found on PATH` };
}

function resolveWindows(input: ResolveInput): Resolved {
  const { command, cwd, isFile } = input;
  const exts = (input.pathext ?? DEFAULT_PATHEXT)
    .split(";")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e.startsWith("."));
  const ownExt = win32.extname(command).toLowerCase();
  // A name that already carries a runnable extension is tried as spelled, then with each extension.
  const names =
    ownExt !== "" && exts.includes(ownExt)
      ? [command, ...exts.map((e) => command + e)]
      : exts.map((e) => command + e);
  const hasDir = /[\\/]/.test(command);
  // Like cmd.exe and cross-spawn: the current folder first, then PATH (entries may be quoted).
  const dirs = hasDir
    ? [cwd]
    : [
        cwd,
        ...(input.path ?? "")
          .split(";")
          .map((d) => d.trim().replace(/^"(.*)"$/, "$1"))
          .filter((d) => d !== ""),
      ];
  for (const dir of dirs) {
    for (const name of names) {
      // A relative PATH entry is relative to the server's folder, never to effectgate's own.
      const full = win32.resolve(cwd, dir, name);
      if (!isFile(full)) continue;
      const ext = win32.extname(full).toLowerCase();
      if (ext === ".cmd" || ext === ".bat") return throughCmd(full, input.args, input.comspec ?? "cmd.exe");
      return direct(full, input.args);
    }
  }
  return { ok: false, reason: `${command}: command not found on PATH (tried extensions ${exts.join(" ")})` };
}

function direct(file: string, args: readonly string[]): Resolved {
  return { ok: true, file, args: [...args], windowsVerbatimArguments: false, resolvedPath: file };
}

// Characters cmd.exe treats specially; each is neutralised with a caret.
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** npm's shims in node_modules/.bin re-parse their arguments once more, so carets are doubled. */
const NPM_SHIM = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i;

function throughCmd(file: string, args: readonly string[], comspec: string): Resolved {
  const twice = NPM_SHIM.test(file);
  const line = [caretEscape(win32.normalize(file)), ...args.map((a) => quoteForCmd(a, twice))].join(" ");
  // /d: no AutoRun; /s /c: strip exactly the outer quotes and run the rest.
  return {
    ok: true,
    file: comspec,
    args: ["/d", "/s", "/c", `"${line}"`],
    windowsVerbatimArguments: true,
    resolvedPath: file,
  };
}

function caretEscape(s: string): string {
  return s.replace(CMD_META, "^$1");
}

/**
 * Quote one argument so the program's C runtime reads it back verbatim (backslashes double only
 * before a quote or the closing quote), then caret-escape so cmd.exe passes it through untouched.
 */
export function quoteForCmd(arg: string, twice: boolean): string {
  let out = "";
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === "\\") {
      backslashes++;
      continue;
    }
    if (ch === '"') out += "\\".repeat(backslashes * 2 + 1) + '"';
    else out += "\\".repeat(backslashes) + ch;
    backslashes = 0;
  }
  out = `"${out}${"\\".repeat(backslashes * 2)}"`;
  out = caretEscape(out);
  return twice ? caretEscape(out) : out;
}
