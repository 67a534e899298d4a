import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";
import { freshEnv } from "../../helpers/tiny-corpus.js";

// Default `eval` measures the shipped sessions and, as a group of its own, the real work mined
// from public agent histories (corpus/benign/real-work). The thresholds hold the first only.
const ROOT = join(import.meta.dirname, "..", "..", "..");
const CLI = join(ROOT, "dist", "main.js");
const REAL_WORK = join(ROOT, "corpus", "benign", "real-work");
const logs = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".jsonl")).length;
const fresh = freshEnv();

beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});
afterAll(() => rmSync(fresh.dir, { recursive: true, force: true }));

describe("eval with no corpus named", () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [CLI, "eval", ...args], { env: fresh.env, encoding: "utf8" });

  it("reports real work as its own group, beside the shipped sessions", () => {
    const r = run(["--json"]);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { benign: BenignReport; realWork: BenignReport | null };
    expect(doc.realWork).not.toBeNull();
    const realWork = doc.realWork as BenignReport;
    expect(realWork.sessions).toBe(logs(REAL_WORK));
    expect(realWork.calls).toBeGreaterThan(0);
    // The shipped group is the top folder's logs alone: none of real work's is counted twice.
    const shipped = logs(join(ROOT, "corpus", "benign"));
    expect(doc.benign.sessions + doc.benign.excluded.length).toBe(shipped);
  });

  it("prints the group under its own heading, and not when a benign folder is named", () => {
    const both = run([]);
    expect(both.stdout).toMatch(/^real work \(corpus\/benign\/real-work, no threshold\): 57 sessions/m);
    const named = run(["--benign", REAL_WORK]);
    expect(named.stdout).not.toContain("real work (");
    expect(named.stdout).toMatch(/^benign traffic: 57 sessions/m);
  });
});
