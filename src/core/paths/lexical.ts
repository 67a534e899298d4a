import type { Platform } from "../types.js";

// Lexical structure of paths: a root plus a list of names. No file system, no environment.

/**
 * A parsed path. `root` is `/` on POSIX; on win32 it is `C:` (always upper-case), a UNC root
 * `\\server\share`, or a device root such as `\\.\pipe`. `kind` says how much of the path is known.
 */
export interface Parsed {
  kind: "absolute" | "relative" | "drive-relative" | "rooted";
  root: string;
  segments: string[];
}

export type ParseResult = { ok: true; parsed: Parsed } | { ok: false; error: string };

/** Strip the Win32 namespace prefixes so every spelling lands on one form. Input uses `\` only. */
function stripWin32Prefix(p: string): string {
  // `\\?\UNC\server\share` and `\??\UNC\…` are UNC paths.
  const unc = /^(?:\\\\[?.]\\|\\\?\?\\)UNC\\/i.exec(p);
  if (unc) return "\\\\" + p.slice(unc[0].length);
  const ns = /^(?:\\\\[?.]\\|\\\?\?\\)/.exec(p);
  if (ns && /^[A-Za-z]:/.test(p.slice(ns[0].length))) return p.slice(ns[0].length);
  return p;
}

function parseWin32(input: string): ParseResult {
  const p = stripWin32Prefix(input.replace(/\//g, "\\"));
  if (p.startsWith("\\\\")) {
    const parts = p.slice(2).split("\\");
    const server = parts[0] ?? "";
    const share = parts[1] ?? "";
    if (server === "" || share === "" || share === "." || share === "..") {
      return {
        ok: false,
        error: `expected a UNC path of the form \\\\server\\share\\…, got ${JSON.stringify(input)}`,
      };
    }
    // Device paths (`\\.\pipe\x`, `\\?\Volume{…}\x`) keep their marker as the "server".
    return {
      ok: true,
      parsed: { kind: "absolute", root: `\\\\${server}\\${share}`, segments: parts.slice(2) },
    };
  }
  const drive = /^([A-Za-z]):/.exec(p);
  if (drive) {
    const root = `${(drive[1] as string).toUpperCase()}:`;
    const rest = p.slice(2);
    return {
      ok: true,
      parsed: {
        kind: rest.startsWith("\\") ? "absolute" : "drive-relative",
        root,
        segments: rest.split("\\"),
      },
    };
  }
  if (p.startsWith("\\")) return { ok: true, parsed: { kind: "rooted", root: "", segments: p.split("\\") } };
  return { ok: true, parsed: { kind: "relative", root: "", segments: p.split("\\") } };
}

export function parsePath(input: string, platform: Platform): ParseResult {
  if (platform === "win32") return parseWin32(input);
  const absolute = input.startsWith("/");
  return {
    ok: true,
    parsed: {
      kind: absolute ? "absolute" : "relative",
      root: absolute ? "/" : "",
      segments: input.split("/"),
    },
  };
}

/**
 * Windows rewrites every name before it reaches the file system: an NTFS stream suffix
 * (`name:stream`, `name::$DATA`, `name:stream:$DATA`) still opens `name`, and trailing dots and
 * spaces are dropped. Reduce each name to the file it opens. Returns null for a name made only of
 * dots and spaces (other than `.` and `..`): Windows' own handling of those is murky, so we refuse.
 */
export function win32Name(segment: string): string | null {
  const colon = segment.indexOf(":");
  const base = colon >= 0 ? segment.slice(0, colon) : segment;
  if (base === "." || base === "..") return base;
  const name = base.replace(/[. ]+$/, "");
  // Empty after the strip but not before: the name was only dots and spaces.
  return name === "" && base !== "" ? null : name;
}

export type Normalised = { ok: true; segments: string[] } | { ok: false; error: string };

/** Resolve `.`, `..` and empty names; `..` above the root stays at the root. */
export function normaliseSegments(segments: readonly string[], platform: Platform): Normalised {
  const out: string[] = [];
  for (const raw of segments) {
    let seg: string | null = raw;
    if (platform === "win32") {
      seg = win32Name(raw);
      if (seg === null)
        return {
          ok: false,
          error: `expected a file name, got a name made only of dots and spaces (${JSON.stringify(raw)})`,
        };
    }
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return { ok: true, segments: out };
}

export function joinPath(root: string, segments: readonly string[], platform: Platform): string {
  if (platform !== "win32") return "/" + segments.join("/");
  if (root.startsWith("\\\\")) return segments.length === 0 ? root : `${root}\\${segments.join("\\")}`;
  return `${root}\\${segments.join("\\")}`;
}
