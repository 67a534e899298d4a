// Where `~` is for a recorded session. Logs record the server's cwd, not the user's home; eval
// must not use the home of whoever runs it (the answer would change from machine to machine), so
// it reads the home off the cwd when the cwd lies in a usual home folder.
import type { Platform } from "../types.js";
import { defaultMachine } from "./scenario.js";

export function inferHome(platform: Platform, cwd: string): string {
  const patterns: Record<Platform, RegExp> = {
    linux: /^(\/home\/[^/]+|\/root)(?:\/|$)/,
    darwin: /^(\/Users\/[^/]+)(?:\/|$)/,
    win32: /^([A-Za-z]:\\Users\\[^\\]+)(?:\\|$)/,
  };
  const m = patterns[platform].exec(cwd);
  return m?.[1] ?? defaultMachine(platform).home;
}
