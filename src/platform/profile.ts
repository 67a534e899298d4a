import { homedir } from "node:os";
import type { PlatformProfile } from "../core/paths/api.js";
import type { Platform } from "../core/types.js";

/** The platform whose path rules apply; anything that is not Windows or macOS follows POSIX/Linux rules. */
export function currentPlatform(): Platform {
  return process.platform === "win32" || process.platform === "darwin" ? process.platform : "linux";
}

/**
 * This machine's facts for canonicalisation. `cwd` is the SERVER's working directory (the relay
 * starts the server in its own cwd unless told otherwise), defaulting to ours.
 */
export function currentProfile(cwd?: string): PlatformProfile {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === "string") env[k] = v;
  return Object.freeze({
    platform: currentPlatform(),
    home: homedir(),
    env: Object.freeze(env),
    cwd: cwd ?? process.cwd(),
  });
}
