// A tools/list answer over 16 MiB, through the built relay: at every level its long strings are
// cut for reading, so it is not compared with the lock; it taints the session instead, and at
// enforce the next call is refused (docs/decisions/0144-a-held-big-line-is-read-cut.md).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wholeLogRecords } from "../../faults/fault-checks.js";
import { cli, fixture, MAIN, sandbox } from "../../helpers/pins.js";

const MiB = 1024 * 1024;

/**
 * initialize, tools/list, then a call to the listed tool; resolves with the list answer's size,
 * the call's answer, the relay's stderr and what the server received.
 */
async function listThrough(
  level: string,
): Promise<{ listBytes: number; callAnswer: string; stderr: string; logs: string; received: string }> {
  const box = sandbox();
  const server = ["node", fixture("huge-list.mjs"), box.state];
  expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
  const logs = join(box.dir, "logs");
  const child = spawn(
    process.execPath,
    [MAIN, "--level", level, "--lock", "effectgate.lock", "--log-dir", logs, "--", ...server],
    { cwd: box.dir, env: box.env, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  const lines: number[] = [];
  let pending = 0;
  let last = "";
  const answers = (n: number) =>
    new Promise<void>((resolve) => {
      const read = (d: Buffer) => {
        for (let from = 0, nl = d.indexOf(10); ; nl = d.indexOf(10, from)) {
          if (nl === -1) {
            pending += d.length - from;
            break;
          }
          lines.push(pending + nl - from);
          // Short lines only (the list answer is kept as its length).
          if (pending === 0) last = d.subarray(from, nl).toString("utf8");
          pending = 0;
          from = nl + 1;
        }
        if (lines.length >= n) {
          child.stdout.off("data", read);
          resolve();
        }
      };
      child.stdout.on("data", read);
    });
  const twoAnswers = answers(2);
  const send = (m: unknown): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  await twoAnswers;
  const third = answers(3);
  const call = { name: "read_file", arguments: { path: join(box.dir, "notes.txt") } };
  send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: call });
  await third;
  child.stdin.end();
  expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
  const received = readFileSync(join(box.state, "received.jsonl"), "utf8");
  return { listBytes: lines[1] ?? 0, callAnswer: last, stderr, logs, received };
}

describe("a tools/list answer over 16 MiB", () => {
  it("at observe reaches the client whole, is not compared, and taints the session", async () => {
    const { listBytes, stderr, logs } = await listThrough("observe");
    expect(listBytes).toBeGreaterThan(20 * MiB);
    expect(stderr).toContain("too large to read whole");
    expect(stderr).not.toContain("description changed");
    const events = wholeLogRecords(logs).filter((r) => r["type"] === "event");
    expect(events.filter((r) => r["ev"] === "pin").map((r) => r["data"])).toEqual([
      { kind: "unreadable-list", got: "cut" },
      expect.objectContaining({ kind: "call", tool: "read_file", refused: false }),
    ]);
    expect(events.find((r) => r["ev"] === "taint")?.["data"]).toMatchObject({ by: "(tools/list)" });
    expect(events.find((r) => r["ev"] === "frame-cut")?.["data"]).toMatchObject({ dir: "s2c", strings: 1 });
  }, 60_000);

  it("at enforce reaches the client whole, is read cut like at observe, and refuses the next call", async () => {
    const { listBytes, callAnswer, stderr, logs, received } = await listThrough("enforce");
    expect(listBytes).toBeGreaterThan(20 * MiB);
    expect(stderr).toContain("too large to read whole");
    expect(callAnswer).toContain("effectgate refused");
    expect(callAnswer).toContain("too large to read whole, so it could not be checked against the lock");
    // The server got the list request, never the call.
    expect(received).toContain('"tools/list"');
    expect(received).not.toContain('"tools/call"');
    const events = wholeLogRecords(logs).filter((r) => r["type"] === "event");
    expect(events.find((r) => r["ev"] === "taint")?.["data"]).toMatchObject({
      by: "(tools/list)",
      reason: "rug-pull",
    });
  }, 60_000);
});
