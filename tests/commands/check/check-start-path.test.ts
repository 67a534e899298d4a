// Black-box: what the BUILT `effectgate check` loads. With the shipped policy it judges from the
// document kept at build time (docs/decisions/0107-start-up-path.md), so neither the YAML parser
// nor the schema library loads; a policy file still brings both.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundledModules, moduleListHook } from "../../helpers/module-list.js";

const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const home = mkdtempSync(join(tmpdir(), "eg-check-start-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const PARSERS = /\/node_modules\/(yaml|zod)\//;

function check(...args: string[]): { code: number | null; out: string; loaded: string[] } {
  const dir = mkdtempSync(join(home, "run-"));
  const { hook, loaded } = moduleListHook(dir);
  const r = spawnSync(
    process.execPath,
    ["--import", hook, MAIN, "check", "--tool", "write_file", "--args", '{"path":"~/.bashrc"}', ...args],
    { encoding: "utf8", env: { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") } },
  );
  return { code: r.status, out: r.stdout, loaded: bundledModules(loaded()) };
}

describe("effectgate check's start path", () => {
  it("the shipped policy: judged (deny, exit 3) without a YAML parser or a schema library", () => {
    const r = check();
    expect(r.code).toBe(3);
    expect(r.out).toContain("rule: paths.deny ~/.bashrc");
    expect(r.loaded.some((u) => u.endsWith("/build/commands/check.js"))).toBe(true);
    expect(r.loaded.filter((u) => PARSERS.test(u))).toEqual([]);
  });

  it("a policy file: read with the YAML parser and checked with the schema", () => {
    const policy = join(home, "p.yaml");
    writeFileSync(policy, "version: 1\npaths:\n  deny: ['~/.bashrc']\n");
    const r = check("--policy", policy);
    expect(r.code).toBe(3);
    expect(r.loaded.some((u) => /\/node_modules\/yaml\//.test(u))).toBe(true);
    expect(r.loaded.some((u) => /\/node_modules\/zod\//.test(u))).toBe(true);
  });
});
