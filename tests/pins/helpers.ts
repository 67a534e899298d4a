import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const MAIN = join(ROOT, "dist", "main.js");
export const FIXTURES = join(ROOT, "tests", "fixtures", "pins");
export const fixture = (name: string): string => join(FIXTURES, name);

/** A fresh folder holding HOME, EFFECTGATE_HOME, the working directory and fixture state. */
export function sandbox(): { dir: string; home: string; state: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), "eg-pins-"));
  const home = join(dir, "home");
  const state = join(dir, "state");
  mkdirSync(home);
  mkdirSync(state);
  return {
    dir,
    home,
    state,
    env: { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") },
  };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/main.js …` in the sandbox's folder. */
export function cli(box: { dir: string; env: NodeJS.ProcessEnv }, args: string[], input?: string): Ran {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: box.dir,
    env: box.env,
    encoding: "utf8",
    input,
    timeout: 50_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
