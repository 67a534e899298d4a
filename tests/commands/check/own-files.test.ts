import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `effectgate check` shows and judges the files a relay with the same options would use
// (decision 0068): the policy, the lock, the home, the log folder, the taint folder.
const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const home = realpathSync(mkdtempSync(join(tmpdir(), "eg-check-own-")));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const state = join(home, "state");
const policy = join(home, "team.yaml");
writeFileSync(policy, "version: 1\npaths:\n  deny: []\n");
writeFileSync(join(home, "pins.lock"), "{}\n");
mkdirSync(join(home, "audit"));
symlinkSync(join(home, "pins.lock"), join(home, "pins-link"));

function check(args: Record<string, unknown>, tool = "write_file") {
  const r = spawnSync(
    process.execPath,
    [
      MAIN,
      "check",
      "--policy",
      policy,
      "--lock",
      "pins.lock",
      "--log-dir",
      "audit",
      "--tool",
      tool,
      "--args",
      JSON.stringify(args),
    ],
    { encoding: "utf8", env: { ...process.env, HOME: home, EFFECTGATE_HOME: state }, cwd: home },
  );
  return { code: r.status, out: r.stdout };
}

describe("check and effectgate's own files", () => {
  it("lists them", () => {
    const r = check({ path: "notes.md" });
    expect(r.code).toBe(0);
    for (const line of [
      `own file (always denied): the policy in force (--policy) ${policy}`,
      `own file (always denied): the pin lock (--lock) ${join(home, "pins.lock")}`,
      `own file (always denied): effectgate's home folder (EFFECTGATE_HOME) ${state}`,
      `own file (always denied): the session log folder (--log-dir) ${join(home, "audit")}`,
      `own file (always denied): the shared taint folder ${join(state, "taint")}`,
    ])
      expect(r.out).toContain(line);
  });

  it("denies each, by any spelling, for reads and writes", () => {
    for (const [tool, path] of [
      ["write_file", "team.yaml"],
      ["read_text_file", "./team.yaml"],
      ["write_file", "pins-link"],
      ["read_text_file", "audit/x.jsonl"],
      ["write_file", "state/taint/x"],
    ] as const) {
      const r = check({ path }, tool);
      expect(r.code, `${tool} ${path}: ${r.out}`).toBe(3);
      expect(r.out).toContain("rule: effectgate's own files");
    }
  });
});
