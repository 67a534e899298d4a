import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { PlatformProfile } from "../../src/core/paths/api.js";
import { ConfigError } from "../../src/core/errors.js";
import { loadPolicy } from "../../src/core/policy/load.js";

export const LINUX: PlatformProfile = {
  platform: "linux",
  home: "/home/ada",
  env: { HOME: "/home/ada" },
  cwd: "/home/ada/proj",
};
export const DARWIN: PlatformProfile = {
  platform: "darwin",
  home: "/Users/ada",
  env: { HOME: "/Users/ada" },
  cwd: "/Users/ada/proj",
};
export const WIN32: PlatformProfile = {
  platform: "win32",
  home: "C:\\Users\\ada",
  env: {
    USERPROFILE: "C:\\Users\\ada",
    APPDATA: "C:\\Users\\ada\\AppData\\Roaming",
    LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local",
  },
  cwd: "C:\\Users\\ada\\proj",
};
export const PROFILES = { linux: LINUX, darwin: DARWIN, win32: WIN32 } as const;

/** Point HOME and EFFECTGATE_HOME at fresh temp folders for the file's tests. */
export function useTempHome(): { dir: () => string } {
  let dir = "";
  const saved = { HOME: process.env.HOME, EFFECTGATE_HOME: process.env.EFFECTGATE_HOME };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "eg-policy-"));
    process.env.HOME = join(dir, "home");
    process.env.EFFECTGATE_HOME = join(dir, "eg");
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir };
}

/** The lines of the ConfigError `text` raises, or a failure when it loads. */
export function problemsOf(text: string, profile: PlatformProfile = LINUX, file = "team.yaml"): string[] {
  try {
    loadPolicy(text, file, "0".repeat(64), profile);
  } catch (err) {
    if (err instanceof ConfigError) return err.message.split("\n");
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused, but it loaded`);
}

export const load = (text: string, profile: PlatformProfile = LINUX) =>
  loadPolicy(text, "team.yaml", "0".repeat(64), profile);

/** A policy whose tool, source, exclude and server globs are each malformed in one way. */
export const MALFORMED_GLOBS = [
  "version: 1",
  "exec:",
  '  tools: ["[!z]ash", "{sh,zsh"]',
  "  action: deny",
  "taint:",
  '  sources: ["ba\\\\sh"]',
  '  exclude: ["[x"]',
  '  servers: ["a}"]',
].join("\n");
