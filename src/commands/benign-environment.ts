// The machine a recorded session is judged again on, for eval and status: the synthetic one
// (src/core/evaluation/machine.ts) with home read off the session's cwd, else the home given for
// sessions of this platform (eval --home; status: this user's), else the synthetic home.
import type { EnvironmentFor } from "../core/evaluation/benign.js";
import { inferHome } from "../core/evaluation/home.js";
import { mapResolver, syntheticProfile } from "../core/evaluation/machine.js";
import type { Platform } from "../core/types.js";

export function benignEnvironment(home?: { platform: Platform; dir: string }): EnvironmentFor {
  return (h) => {
    const fallback = home !== undefined && home.platform === h.platform ? home.dir : undefined;
    return {
      profile: syntheticProfile(h.platform, inferHome(h.platform, h.cwd, fallback), h.cwd),
      resolver: mapResolver(h.platform, undefined),
      ...(h.name !== null ? { server: h.name } : {}),
    };
  };
}

export function thisPlatform(): Platform {
  return process.platform === "darwin" || process.platform === "win32" ? process.platform : "linux";
}
