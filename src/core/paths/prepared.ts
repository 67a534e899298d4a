import type { Platform } from "../types.js";
import { foldName } from "./fold.js";

/**
 * A canonical path split and folded once, so that a hundred patterns can compare by segments
 * without re-splitting. `root` is "" for a path that is not absolute (anchored patterns never
 * match it; name patterns still do).
 */
export interface PreparedPath {
  root: string;
  segments: readonly string[];
}

/** Split and fold without touching the memo (for pattern anchors). */
export function splitPath(absolute: string, platform: Platform): PreparedPath {
  if (platform !== "win32") {
    const root = absolute.startsWith("/") ? "/" : "";
    // One loop, not split-filter-map: every new path of a decision comes through here.
    const segments: string[] = [];
    for (const s of absolute.split("/"))
      if (s !== "") segments.push(platform === "linux" ? s : foldName(s, platform));
    return { root, segments };
  }
  const parts = absolute.split(/[\\/]/);
  let root = "";
  let rest: string[] = parts;
  if (parts.length >= 4 && parts[0] === "" && parts[1] === "") {
    root = foldName(`\\\\${parts[2]}\\${parts[3]}`, platform); // \\server\share
    rest = parts.slice(4);
  } else if (/^[A-Za-z]:$/.test(parts[0] ?? "")) {
    root = foldName(parts[0] as string, platform);
    rest = parts.slice(1);
  }
  return { root, segments: rest.filter((s) => s !== "").map((s) => foldName(s, platform)) };
}

// A one-entry memo per platform: a policy asks every pattern about the same path in a row.
const last: Record<Platform, { key: string; value: PreparedPath } | undefined> = {
  linux: undefined,
  darwin: undefined,
  win32: undefined,
};

export function preparePath(absolute: string, platform: Platform): PreparedPath {
  const hit = last[platform];
  if (hit && hit.key === absolute) return hit.value;
  const value = splitPath(absolute, platform);
  last[platform] = { key: absolute, value };
  return value;
}
