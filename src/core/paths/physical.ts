import type { Platform } from "../types.js";
import type { PathResolver } from "./api.js";
import { joinPath, parsePath, win32Name } from "./lexical.js";

// The kernel resolves `a/link/../b` by following `link` first and then taking `..` from its
// target; collapsing `..` lexically gives `a/b` instead, a different file whenever `link` points
// elsewhere. physicalPath() walks the names the way the kernel does. It is only worth its cost
// (one resolver question per `..` run, plus one at the end) when the path has a `..` in it.

/** The name Windows opens for `raw` (streams and trailing dots gone); other platforms keep it. */
function nameOf(raw: string, platform: Platform): string {
  return platform === "win32" ? (win32Name(raw) ?? raw) : raw;
}

/** Whether any name in the absolute path is `..` (as the platform reads names). */
export function hasParentStep(segments: readonly string[], platform: Platform): boolean {
  return segments.some((s) => nameOf(s, platform) === "..");
}

interface Split {
  root: string;
  segments: string[];
}

/** Split an absolute path in the profile's spelling; undefined when it is not absolute. */
function split(absolute: string, platform: Platform): Split | undefined {
  const r = parsePath(absolute, platform);
  if (!r.ok || r.parsed.kind !== "absolute") return undefined;
  return { root: r.parsed.root, segments: r.parsed.segments.filter((s) => s !== "" && s !== ".") };
}

/**
 * The path the kernel would reach for `root` + `segments` (absolute, not yet normalised):
 * before each `..`, the names so far are resolved through `resolver` and `..` steps to the
 * parent of that real folder; `.` and empty names are skipped. Where the resolver cannot say,
 * the walk carries on with the spelled names (the same fallback canonicalise uses).
 * Undefined when the kernel cannot walk the path: a `..` after something that is not an existing
 * folder (a missing name, a file, a dangling link, whose target the kernel never steps out of),
 * as far as `resolver.isFolder` can tell. Only a server that folds `..` first opens anything then.
 */
export function physicalPath(
  root: string,
  segments: readonly string[],
  platform: Platform,
  resolver: PathResolver,
): string | undefined {
  let current: Split = { root, segments: [] };
  let pending: string[] = [];
  // Resolve what has been walked so far, so the next `..` leaves the folder the kernel is in.
  const settle = (): Split => {
    if (pending.length === 0) return current;
    const joined = joinPath(current.root, [...current.segments, ...pending], platform);
    const real = resolver.realpath(joined);
    const parts = real === undefined ? undefined : split(real, platform);
    return parts ?? { root: current.root, segments: [...current.segments, ...pending] };
  };
  for (const raw of segments) {
    const seg = nameOf(raw, platform);
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (
        pending.length > 0 &&
        resolver.isFolder?.(joinPath(current.root, [...current.segments, ...pending], platform)) === false
      )
        return undefined;
      const here = settle();
      current = { root: here.root, segments: here.segments.slice(0, -1) }; // at a root, stays there
      pending = [];
      continue;
    }
    pending.push(seg);
  }
  // The parent of a resolved folder is itself resolved, so a path ending on `..` needs no
  // further question; a trailing name run is resolved by settle().
  const end = settle();
  return joinPath(end.root, end.segments, platform);
}
