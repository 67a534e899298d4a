// A frame over the log's whole-frame limit at observe is read with its long strings cut: through
// the built CLI around the echo fixture, judged by what reached the server, the client and the log.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUDGET } from "../../src/core/effects/extract.js";
import { SCANNED_CHARS } from "../../src/core/taint/observe.js";
import { BIG_LINES } from "../../src/relay/pass-through.js";
import { wholeLogRecords } from "../faults/fault-checks.js";
import { fixture, tempDir, testEnv } from "./helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");
const MiB = 1024 * 1024;
/** What the relay keeps of each string: one character past the judge's 8 Mi budget. */
const KEPT = 8 * MiB + 1;
const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

describe("huge frames at observe", () => {
  it("keep more of each string than the judge's budget and the content scan read", () => {
    // A cut string must still make its call too large to judge, and never shorten the scan.
    expect(BIG_LINES.keepChars).toBe(KEPT);
    expect(BIG_LINES.keepChars).toBeGreaterThan(BUDGET.maxChars);
    expect(BIG_LINES.keepChars).toBeGreaterThan(SCANNED_CHARS);
  });

  it("reach server and client whole, are judged too large, and the log says what was cut", async () => {
    const home = tempDir("eg-cut-");
    const logs = join(home, "logs");
    const received = join(home, "received.jsonl");
    const content = "z".repeat(20 * MiB);
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "write_file", arguments: { path: join(home, "out.txt"), content } },
    });
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

    // The bytes went on unchanged both ways.
    expect(sha(readFileSync(received, "utf8").trimEnd())).toBe(sha(call));
    const answer = JSON.parse(Buffer.concat(out).toString("utf8")) as {
      result: { echo: { params: { arguments: { content: string } } } };
    };
    expect(answer.result.echo.params.arguments.content).toBe(content);

    const records = wholeLogRecords(logs);
    const events = (ev: string) =>
      records
        .filter((r) => r["type"] === "event" && r["ev"] === ev)
        .map((r) => r["data"] as Record<string, unknown>);
    // The call: its 20 MiB argument cut; the answer: the argument twice (as text and as an object).
    expect(events("frame-cut")).toEqual([
      { dir: "c2s", strings: 1, chars: 20 * MiB - KEPT },
      { dir: "s2c", strings: 2, chars: expect.any(Number) as number },
    ]);
    const cutIndex = records.findIndex((r) => r["ev"] === "frame-cut");
    expect(records[cutIndex - 1]).toMatchObject({
      type: "frame",
      dir: "c2s",
      size: Buffer.byteLength(call),
      truncated: true,
    });
    const decisions = events("decision");
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ id: 5, tool: "write_file", level: "observe" });
    expect(String(decisions[0]?.["reason"])).toMatch(
      /too large to judge: 1 string in this frame of \d+ bytes was cut/,
    );
    expect(events("scan-partial")).toHaveLength(1);
  }, 60_000);
});
