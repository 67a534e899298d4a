// A response with more text than the content scan reads is recorded as such, at every level:
// through the built CLI around the echo fixture, judged by the session log.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wholeLogRecords } from "../faults/fault-checks.js";
import { fixture, tempDir, testEnv } from "./helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");
const MiB = 1024 * 1024;

function call(id: number, text: string): string {
  return (
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "note", arguments: { text } },
    }) + "\n"
  );
}

/** Two calls through the CLI: a small one, then one whose echoed answer holds 2 × 2.5 MiB of text. */
async function run(level: string): Promise<Array<Record<string, unknown>>> {
  const home = tempDir("eg-scan-");
  const logs = join(home, "logs");
  const child = spawn(
    "node",
    [MAIN, "--level", level, "--log-dir", logs, "--", "node", fixture("echo.mjs")],
    {
      env: testEnv({ HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") }),
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stderr.resume();
  // The fixture exits when its input ends, so the input stays open until both answers are back.
  const answered = new Promise<void>((resolve) =>
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (out.split("\n").length > 2) resolve();
    }),
  );
  child.stdin.write(call(1, "small") + call(2, "q".repeat(2.5 * MiB)));
  await answered;
  child.stdin.end();
  const code = await new Promise((resolve) => child.on("close", resolve));
  expect(code).toBe(0);
  expect(out.split("\n").filter((l) => l !== "")).toHaveLength(2);
  return wholeLogRecords(logs);
}

describe("scan extent in the log", () => {
  for (const level of ["observe", "enforce"]) {
    it(`at ${level}, names the call whose answer was not scanned to the end`, async () => {
      const events = (await run(level)).filter((r) => r["type"] === "event" && r["ev"] === "scan-partial");
      expect(events).toHaveLength(1);
      const data = events[0]?.["data"] as { id: number; scanned: number; of: number };
      expect(data.id).toBe(2);
      // The echo fixture answers with the call as text and as an object: the argument twice.
      expect(data.of).toBeGreaterThan(5 * MiB);
      expect(data.scanned).toBeGreaterThan(4 * MiB - 64);
      expect(data.scanned).toBeLessThanOrEqual(4 * MiB);
    });
  }
});
