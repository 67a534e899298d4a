/**
 * The official MCP conformance suite's client scenarios with effectgate --url as the client
 * under test (scripts/conformance.mjs; the suite runs on Node 22, both from the npm registry into
 * node_modules/.cache). A sample here; .ci/run runs every client scenario and mcp-remote beside.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../e2e/harness.js";

// Not sse-retry: the suite times the reconnection against the wall clock, which a loaded machine
// breaks. .ci/run runs it with every other scenario; tests/relay/remote/legacy-http.test.ts
// checks the resumption itself (Last-Event-ID, nothing lost or doubled).
const SAMPLE = [
  "initialize",
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "auth/metadata-default",
  "auth/scope-step-up",
  "auth/pre-registration",
  "auth/client-credentials-jwt",
  "auth/cross-app-access-complete-flow",
];

describe("MCP conformance suite, client scenarios, through effectgate --url", () => {
  it("passes the sample", { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "effectgate-conformance-run-"));
    const json = join(dir, "results.json");
    const args = [join(ROOT, "scripts", "conformance.mjs"), "--bridge", "effectgate", "--json", json];
    for (const s of SAMPLE) args.push("--scenario", s);
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
      child.stderr.on("data", (d: Buffer) => (out += d.toString("utf8")));
      child.on("close", (code) => resolve({ code, out }));
    });
    const results = JSON.parse(readFileSync(json, "utf8")) as {
      results: Array<{ scenario: string; passed: boolean; success: number; failure: number }>;
    };
    rmSync(dir, { recursive: true, force: true });
    expect(r.code, r.out).toBe(0);
    expect(results.results.map((x) => [x.scenario, x.passed, x.failure])).toEqual(
      SAMPLE.map((s) => [s, true, 0]),
    );
    // Each scenario made real checks: a run that did nothing would pass with none.
    for (const x of results.results) expect(x.success, x.scenario).toBeGreaterThan(0);
  });
});
