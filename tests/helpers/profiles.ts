import type { PathResolver, PlatformProfile } from "../../src/core/paths/api.js";

// Fixed profiles for the three platforms; every table and property test runs on Linux through them.

export const LINUX: PlatformProfile = {
  platform: "linux",
  home: "/home/u",
  env: { HOME: "/home/u", XDG_CONFIG_HOME: "/home/u/.config", LOOP: "$HOME", EMPTY: "" },
  cwd: "/srv/project",
};

export const DARWIN: PlatformProfile = {
  platform: "darwin",
  home: "/Users/u",
  env: { HOME: "/Users/u", LOOP: "$HOME" },
  cwd: "/Users/u/Projects/app",
};

export const WIN32: PlatformProfile = {
  platform: "win32",
  home: "C:\\Users\\u",
  env: {
    USERPROFILE: "C:\\Users\\u",
    APPDATA: "C:\\Users\\u\\AppData\\Roaming",
    ProgramFiles: "C:\\Program Files",
    "=D:": "D:\\work",
    LOOP: "%USERPROFILE%",
  },
  cwd: "C:\\src\\app",
};

/** A resolver that maps exact prefixes (already lexical) to targets, like a tree of symlinks. */
export function fakeResolver(links: Record<string, string>, sep = "/"): PathResolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    realpath(absolute: string): string | undefined {
      calls.push(absolute);
      let best = "";
      for (const from of Object.keys(links)) {
        if ((absolute === from || absolute.startsWith(from + sep)) && from.length > best.length) best = from;
      }
      return best === "" ? absolute : (links[best] as string) + absolute.slice(best.length);
    },
  };
}

/** 8.3 short names on win32: a case-insensitive per-segment table, as GetLongPathNameW would give. */
export function shortNameResolver(names: Record<string, string>): PathResolver {
  const table = new Map(Object.entries(names).map(([k, v]) => [k.toUpperCase(), v]));
  return {
    realpath: (absolute) =>
      absolute
        .split("\\")
        .map((seg) => table.get(seg.toUpperCase()) ?? seg)
        .join("\\"),
  };
}
