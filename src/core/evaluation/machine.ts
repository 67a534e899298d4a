// The synthetic machine eval judges on: a platform profile and a resolver that answers from a
// map instead of a file system, so every run of eval gives the same answers everywhere.
import type { PathResolver, PlatformProfile } from "../paths/api.js";
import type { Platform } from "../types.js";

export function syntheticEnv(platform: Platform, home: string): Record<string, string> {
  if (platform === "win32") {
    return {
      USERPROFILE: home,
      HOMEDRIVE: "C:",
      HOMEPATH: home.slice(2),
      APPDATA: `${home}\\AppData\\Roaming`,
      LOCALAPPDATA: `${home}\\AppData\\Local`,
      USERNAME: "user",
      TEMP: `${home}\\AppData\\Local\\Temp`,
    };
  }
  return { HOME: home, USER: "user", SHELL: platform === "darwin" ? "/bin/zsh" : "/bin/bash" };
}

export function syntheticProfile(
  platform: Platform,
  home: string,
  cwd: string,
  env?: Readonly<Record<string, string>>,
): PlatformProfile {
  return { platform, home, cwd, env: { ...syntheticEnv(platform, home), ...(env ?? {}) } };
}

/**
 * A resolver that knows only the links it is given (`/home/user/project/notes` → `/home/user/.ssh`,
 * or a Windows 8.3 name → its long name). Prefixes are replaced segment-wise, longest first, until
 * nothing changes; case is folded on darwin and win32 as their file systems do.
 */
export function mapResolver(
  platform: Platform,
  links: Readonly<Record<string, string>> | undefined,
): PathResolver {
  const sep = platform === "win32" ? "\\" : "/";
  const fold = platform === "linux" ? (s: string) => s : (s: string) => s.toLowerCase();
  const entries = Object.entries(links ?? {}).sort((a, b) => b[0].length - a[0].length);
  return {
    realpath(absolute: string): string {
      let current = absolute;
      for (let round = 0; round < 40; round++) {
        const hit = entries.find(([from]) => {
          const f = fold(current);
          const k = fold(from);
          return f === k || (f.startsWith(k) && (k.endsWith(sep) || f.charAt(k.length) === sep));
        });
        if (!hit) return current;
        // A link to itself changes nothing; the round limit ends it like any loop.
        current = hit[1] + current.slice(hit[0].length);
      }
      return current;
    },
  };
}
