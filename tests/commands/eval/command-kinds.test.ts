import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";
import { freshEnv } from "../../helpers/tiny-corpus.js";

// Issue 19's figure: at strict, untainted, under 1% of ordinary commands blocked, by kind.
const ROOT = join(import.meta.dirname, "..", "..", "..");
const CLI = join(ROOT, "dist", "main.js");
const REAL_WORK = join(ROOT, "corpus", "benign", "real-work");
const fresh = freshEnv();

beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});
afterAll(() => rmSync(fresh.dir, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, [CLI, "eval", "--benign", REAL_WORK, ...args], {
    env: fresh.env,
    encoding: "utf8",
  });

describe("eval's blocks at strict by kind of command", () => {
  it("keeps every ordinary kind of real work under 1%, and says what other holds", () => {
    const r = run(["--json"]);
    expect(r.status, r.stderr).toBe(0);
    const b = (JSON.parse(r.stdout) as { benign: BenignReport }).benign;
    const { kinds, other } = b.commandKinds;
    for (const kind of ["reads and files", "builds and tests", "git", "package installs"] as const) {
      const row = kinds[kind];
      expect(row.calls, `${kind}: expected commands of this kind in real work`).toBeGreaterThan(0);
      expect(row.blocked / row.calls, `${kind}: ${row.blocked} of ${row.calls} blocked`).toBeLessThan(0.01);
    }
    // Other is told program by program, and its rows add up to it.
    const rows = Object.values(other);
    expect(rows.reduce((n, x) => n + x.calls, 0)).toBe(kinds.other.calls);
    expect(rows.reduce((n, x) => n + x.blocked, 0)).toBe(kinds.other.blocked);
    expect(other["psql"]?.blocked).toBe(1);
    // Every untainted command is counted under one kind, never more than the calls judged.
    const counted = Object.values(kinds).reduce((n, x) => n + x.calls, 0);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(b.calls);
  });

  it("prints the figure in the text report", () => {
    const r = run([]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("commands at strict in untainted sessions, by kind (blocked of calls):");
    expect(r.stdout).toMatch(/^ {4}git +0 of \d+ \(0\.0%\)$/m);
    expect(r.stdout).toMatch(/^ {4}other holds: .*psql 1 of 1/m);
  });
});
