// A frame over the log's whole-frame limit at observe is read with its long strings cut: through
// the built CLI around the echo fixture, judged by what reached the server, the client and the log.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUDGET } from "../../../src/core/effects/budget.js";
import { SCANNED_CHARS } from "../../../src/core/taint/scan-budget.js";
import { BIG_LINES } from "../../../src/relay/session/pass-through.js";
import { wholeLogRecords } from "../../faults/fault-checks.js";
import { fixture, tempDir, testEnv } from "../helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const MiB = 1024 * 1024;
/** What the relay keeps of each string: one character past the judge's 8 Mi budget. */
const KEPT = 8 * MiB + 1;
const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

/**
 * One call through the built CLI at observe around the echo fixture: what the server received,
 * what the client got back, and the session log's records.
 */
async function observeOneCall(call: string) {
  const home = tempDir("eg-cut-");
  const logs = join(home, "logs");
  const received = join(home, "received.jsonl");
  const child = spawn(
    "node",
    [MAIN, "--level", "observe", "--log-dir", logs, "--", "node", fixture("echo.mjs"), received],
    {
      env: testEnv({ HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") }),
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const out: Buffer[] = [];
  child.stderr.resume();
  const answered = new Promise<void>((resolve) =>
    child.stdout.on("data", (c: Buffer) => {
      out.push(c);
      if (c.includes(0x0a)) resolve();
    }),
  );
  child.stdin.write(`${call}\n`);
  await answered;
  child.stdin.end();
  expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
  const records = wholeLogRecords(logs);
  const events = (ev: string) =>
    records
      .filter((r) => r["type"] === "event" && r["ev"] === ev)
      .map((r) => r["data"] as Record<string, unknown>);
  return {
    received: readFileSync(received, "utf8").trimEnd(),
    answer: Buffer.concat(out).toString("utf8"),
    records,
    events,
  };
}

describe("huge frames at observe", () => {
  it("keep more of each string than the judge's budget and the content scan read", () => {
    // A cut string must still make its call too large to judge, and never shorten the scan.
    expect(BIG_LINES.keepChars).toBe(KEPT);
    expect(BIG_LINES.keepChars).toBeGreaterThan(BUDGET.maxChars);
    expect(BIG_LINES.keepChars).toBeGreaterThan(SCANNED_CHARS);
    // Deep structure is kept until the text kept is as long as the scan reads.
    expect(BIG_LINES.keepText).toBe(SCANNED_CHARS);
  });

  it("reach server and client whole, are judged as enforce judges them, and the log says what was cut", async () => {
    const content = "z".repeat(20 * MiB);
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "write_file", arguments: { path: "/tmp/eg-out.txt", content } },
    });
    const { received, answer: answerText, records, events } = await observeOneCall(call);

    // The bytes went on unchanged both ways.
    expect(sha(received)).toBe(sha(call));
    const answer = JSON.parse(answerText) as {
      result: { echo: { params: { arguments: { content: string } } } };
    };
    expect(answer.result.echo.params.arguments.content).toBe(content);

    // The call: its 20 MiB argument cut. The answer holds the argument twice, as text and inside
    // the echoed call: both are cut, and once the first is read the answer has the judge's budget
    // of text, so the echoed call keeps only its first member.
    expect(events("frame-cut")).toEqual([
      { dir: "c2s", strings: 1, containers: 0, chars: 20 * MiB - KEPT },
      { dir: "s2c", strings: 2, containers: 1, chars: expect.any(Number) as number },
    ]);
    const cutIndex = records.findIndex((r) => r["ev"] === "frame-cut");
    expect(records[cutIndex - 1]).toMatchObject({
      type: "frame",
      dir: "c2s",
      size: Buffer.byteLength(call),
      truncated: true,
    });
    // The cut string is write_file's content, which the judge never reads: the call is judged
    // as enforce judges it, a write to a plain path, allowed (decision 0066), recorded with the
    // path it writes (decision 0094), not as unjudgeable.
    expect(events("decision")).toEqual([
      expect.objectContaining({
        tool: "write_file",
        verdict: "allow",
        outcome: "forward",
        effects: [expect.objectContaining({ operation: "write" })],
      }),
    ]);
    expect(events("decision")[0]).not.toHaveProperty("unjudgeable");
    expect(events("scan-partial")).toHaveLength(1);
  }, 60_000);

  it("of millions of small elements reach server and client whole, and are read cut short", async () => {
    const count = 10 * MiB;
    const call = `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"/tmp/eg-rows.txt","rows":[${"1,".repeat(count)}1]}}}`;
    const { received, answer: answerText, events } = await observeOneCall(call);

    expect(sha(received)).toBe(sha(call));
    const answer = JSON.parse(answerText) as {
      result: { echo: { params: { arguments: { rows: number[] } } } };
    };
    expect(answer.result.echo.params.arguments.rows).toHaveLength(count + 1);

    // The call keeps about the scan's budget of text; the answer also has the call as one long string.
    const [c2s, s2c] = events("frame-cut");
    expect(c2s).toMatchObject({ dir: "c2s", strings: 0, containers: 1 });
    expect(Number(c2s?.["chars"])).toBeGreaterThan(call.length - BIG_LINES.keepText - 1024);
    expect(Number(c2s?.["chars"])).toBeLessThan(call.length - BIG_LINES.keepText);
    expect(s2c).toMatchObject({ dir: "s2c", strings: 1, containers: 1 });
    const decisions = events("decision");
    expect(decisions).toHaveLength(1);
    expect(String(decisions[0]?.["reason"])).toMatch(
      /too large to judge: this frame of \d+ bytes was read with 1 array or object cut short/,
    );
  }, 60_000);
});
