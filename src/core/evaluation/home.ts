// Where `~` is for a recorded session. Logs record the server's cwd, not the user's home; eval
// must not use the home of whoever runs it (the answer would change from machine to machine), so
// it reads the home off the cwd when the cwd lies in a usual home folder. A command judging the
// user's own logs on the machine that wrote them may name a home for the rest (`--home`, status).
import type { Platform } from "../types.js";
import { defaultMachine } from "./scenario.js";

/** The home folder a cwd lies in (`/home/ana/x` → `/home/ana`), if it lies in a usual one. */
function homeOfCwd(platform: Platform, cwd: string): string | undefined {
  const patterns: Record<Platform, RegExp> = {
    linux: /^(\/home\/[^/]+|\/root)(?:\/|$)/,
    darwin: /^(\/Users\/[^/]+)(?:\/|$)/,
    win32: /^([A-Za-z]:\\Users\\[^\\]+)(?:\\|$)/,
  };
  return patterns[platform].exec(cwd)?.[1];
}

/** The home read off the cwd, else `fallback` (a home given for this platform), else the synthetic one. */
export function inferHome(platform: Platform, cwd: string, fallback?: string): string {
  return homeOfCwd(platform, cwd) ?? fallback ?? defaultMachine(platform).home;
}
