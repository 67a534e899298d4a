// Shared set-up for the clients tests: a fresh machine (HOME, project, EFFECTGATE_HOME) filled
// with the fixture configs, and a runner for the built CLI.
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

export const REPO = join(import.meta.dirname, "..", "..");
export const FIXTURES = join(REPO, "tests", "fixtures", "configs");
export const MAIN = join(REPO, "dist", "main.js");

export interface Machine {
  root: string;
  home: string;
  project: string;
  egHome: string;
  env: NodeJS.ProcessEnv;
}

export function freshMachine(withFixtures = true): Machine {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "eg-clients-")));
  const home = join(root, "home");
  const project = join(root, "project");
  if (withFixtures) {
    cpSync(join(FIXTURES, "home"), home, { recursive: true });
    cpSync(join(FIXTURES, "project"), project, { recursive: true });
  }
  const egHome = join(root, "eg");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    EFFECTGATE_HOME: egHome,
    APPDATA: join(root, "appdata"),
    LOCALAPPDATA: join(root, "localappdata"),
  };
  return { root, home, project, egHome, env };
}

export function cli(m: Machine, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [MAIN, ...args], {
    env: m.env,
    cwd: existsSync(m.project) ? m.project : m.root,
    encoding: "utf8",
  });
}

export function spawnCli(m: Machine, args: string[]) {
  return spawn(process.execPath, [MAIN, ...args], {
    env: m.env,
    cwd: m.project,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Relative paths of every fixture config file. */
export function fixtureFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const full = join(dir, n);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
  return [...walk(join(FIXTURES, "home")), ...walk(join(FIXTURES, "project"))]
    .map((f) => relative(FIXTURES, f))
    .sort();
}
