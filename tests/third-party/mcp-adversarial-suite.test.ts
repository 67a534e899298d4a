/**
 * The mcp-adversarial-suite adapter (scripts/third-party/mcp-adversarial-suite.mjs) on scenarios
 * of our own in the suite's format (tests/fixtures/third-party/adversarial/scenarios): the suite
 * is not in the repository. Scores say what reached the recording fixture, and for spoofed
 * answers what reached the client. Needs `npm run build`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../e2e/harness.js";

const dir = mkdtempSync(join(tmpdir(), "effectgate-adversarial-suite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  id: string;
  setup: string;
  score: string;
}

describe("the mcp-adversarial-suite adapter, on scenarios in the suite's format", () => {
  it(
    "scores drift, look-alike names and spoofed answers, without and with a lock",
    { timeout: 180_000 },
    async () => {
      const json = join(dir, "rows.json");
      const suite = join(ROOT, "tests", "fixtures", "third-party", "adversarial");
      const args = [join(ROOT, "scripts", "third-party", "mcp-adversarial-suite.mjs"), "--suite", suite];
      args.push("--level", "enforce", "--json", json);
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
        child.stderr.on("data", (d: Buffer) => (out += d.toString("utf8")));
        child.on("close", (code) => resolve({ code, out }));
      });
      expect(r.code, r.out).toBe(0);
      const rows = JSON.parse(readFileSync(json, "utf8")) as Row[];
      const by = (setup: string) =>
        Object.fromEntries(rows.filter((x) => x.setup === setup).map((x) => [x.id, x.score]));
      expect(by("no lock")).toEqual({
        // Nothing was approved, so a tool added mid-session is no drift.
        "own_drift_added_tool:drifted-call": "missed",
        // Look-alike names are refused unless pinned by their exact name: both of them (decision 0092).
        "own_look_alike:call_cyrillic_tool-2": "contained",
        "own_look_alike:call_ascii_tool-1": "false-positive",
        "own_spoofed_answers:own-echo": "passed",
        // effectgate judges every answer a lax client would match and relays it (decision 0059).
        "own_spoofed_answers:spoof-0": "missed",
        "own_spoofed_answers:spoof-1": "missed",
        "own_spoofed_answers:spoof-2": "missed",
        own_unknown_server: "not-applicable",
      });
      expect(by("lock")).toEqual({
        "own_drift_added_tool:drifted-call": "contained",
        "own_look_alike:call_cyrillic_tool-2": "contained",
        "own_look_alike:call_ascii_tool-1": "passed",
        "own_spoofed_answers:own-echo": "passed",
        "own_spoofed_answers:spoof-0": "missed",
        "own_spoofed_answers:spoof-1": "missed",
        "own_spoofed_answers:spoof-2": "missed",
        own_unknown_server: "not-applicable",
      });
      expect(r.out).toContain("enforce, lock: scenarios contained 2/3");
    },
  );
});
