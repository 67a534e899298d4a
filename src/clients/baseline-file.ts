// Where the config baseline lives and how it is read and written.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../core/errors.js";
import { effectgateHome } from "../platform/home.js";
import { canonicalJson } from "../core/json/jcs.js";
import { type Baseline, loadBaseline } from "./baseline.js";

export function baselinePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined) return resolve(flag);
  return join(effectgateHome(env), "configs.lock");
}

/** Reads and validates a baseline; a missing or invalid one is a ConfigError (exit 78). */
export function readBaseline(path: string): Baseline {
  if (!existsSync(path)) {
    throw new ConfigError([
      {
        file: path,
        key: "baseline",
        expected: "a file written by `effectgate verify --write`",
        got: "no such file",
      },
    ]);
  }
  const result = loadBaseline(path, readFileSync(path, "utf8"));
  if (Array.isArray(result)) throw new ConfigError(result);
  return result;
}

export function writeBaseline(path: string, baseline: Baseline): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, canonicalJson(baseline) + "\n", { mode: 0o644 });
  renameSync(tmp, path);
}
