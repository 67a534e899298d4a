// A tools/list answer over 16 MiB, through the built relay: at observe its long strings are cut
// for reading, so it is not compared with the lock; at enforce it is held whole and compared.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wholeLogRecords } from "../../faults/fault-checks.js";
import { cli, fixture, MAIN, sandbox } from "../../helpers/pins.js";

const MiB = 1024 * 1024;

/** initialize, then tools/list; resolves with the list answer's size and the relay's stderr. */
async function listThrough(level: string): Promise<{ listBytes: number; stderr: string; logs: string }> {
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
  const twoAnswers = new Promise<void>((resolve) =>
    child.stdout.on("data", (d: Buffer) => {
      for (let from = 0, nl = d.indexOf(10); ; nl = d.indexOf(10, from)) {
        if (nl === -1) {
          pending += d.length - from;
          break;
        }
        lines.push(pending + nl - from);
        pending = 0;
        from = nl + 1;
        if (lines.length === 2) resolve();
      }
    }),
  );
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
  child.stdin.end();
  expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
  return { listBytes: lines[1] ?? 0, stderr, logs };
}

describe("a tools/list answer over 16 MiB", () => {
  it("at observe reaches the client whole and is recorded as unread, not as a changed tool", async () => {
    const { listBytes, stderr, logs } = await listThrough("observe");
    expect(listBytes).toBeGreaterThan(20 * MiB);
    expect(stderr).toContain("too large to read whole");
    expect(stderr).not.toContain("description changed");
    const events = wholeLogRecords(logs).filter((r) => r["type"] === "event");
    expect(events.filter((r) => r["ev"] === "pin").map((r) => r["data"])).toEqual([
      { kind: "unreadable-list", got: "cut" },
    ]);
    expect(events.find((r) => r["ev"] === "frame-cut")?.["data"]).toMatchObject({ dir: "s2c", strings: 1 });
  }, 60_000);

  it("at enforce is held whole and compared with the lock", async () => {
    const { listBytes, stderr } = await listThrough("enforce");
    expect(listBytes).toBeGreaterThan(20 * MiB);
    expect(stderr).toContain('tool "read_file": description changed');
  }, 60_000);
});
