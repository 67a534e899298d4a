import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { box, CLI, FAULT_SERVER, GateClient, receivedWork } from "../adversarial/gate-client.js";
import { expectNoOrphan, wholeLogRecords } from "./fault-checks.js";

// The server or the client goes away at a bad moment. effectgate must not hang, must not leave
// the server running, must exit with the server's code, and must leave a whole log.

function relay(b: ReturnType<typeof box>, level = "enforce"): GateClient {
  return new GateClient(
    ["--level", level, "--log-dir", b.logDir, "--", process.execPath, FAULT_SERVER],
    b.env,
  );
}

describe("server faults", () => {
  it("the server crashes mid-frame: effectgate exits with its code, says so, log whole", async () => {
    const b = box({ FAULT: "crash-mid-frame" });
    const c = relay(b);
    await c.initialize();
    c.call(1, "write_file", { path: join(b.project, "a.txt"), content: "x" });
    const { code } = await c.exited;
    expect(code).toBe(3);
    await expectNoOrphan(b.pidFile);
    const recs = wholeLogRecords(b.logDir);
    expect(recs.length).toBeGreaterThan(0);
    expect(recs.at(-1)?.type).toBe("exit");
    // Last, so the checks above are reported on their own: the human is told the server died.
    expect(c.stderr).toMatch(/server[^\n]*\b3\b/i);
  });

  it("the server exits before answering: the client sees EOF (no pending call left forever)", async () => {
    const b = box({ FAULT: "exit-before-answer" });
    const c = relay(b);
    await c.initialize();
    c.call(1, "write_file", { path: join(b.project, "a.txt"), content: "x" });
    const { code } = await c.exited; // the test timeout is the "forever" bound
    expect(code).toBe(5);
    expect(c.child.stdout!.readableEnded).toBe(true);
    await expectNoOrphan(b.pidFile);
    wholeLogRecords(b.logDir);
    expect(c.stderr).toMatch(/server[^\n]*\b5\b/i);
  });

  it("the official SDK client's pending callTool fails instead of hanging when the server dies", async () => {
    const b = box({ FAULT: "exit-before-answer" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--level", "enforce", "--log-dir", b.logDir, "--", process.execPath, FAULT_SERVER],
      env: b.env as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "faults", version: "1" });
    await client.connect(transport);
    const outcome = await client
      .callTool({ name: "write_file", arguments: { path: join(b.project, "a.txt"), content: "x" } })
      .then(
        () => "answered",
        (err: unknown) => `failed: ${String(err)}`,
      );
    await client.close();
    expect(outcome).toMatch(/^failed: .*(closed|Connection)/i);
    await expectNoOrphan(b.pidFile);
  });

  for (const ignoreTerm of [false, true]) {
    it(`the client disappears mid-call (server ${ignoreTerm ? "ignores SIGTERM" : "ignores EOF"}): both exit, no orphan`, async () => {
      const b = box({ FAULT: "stubborn", ...(ignoreTerm ? { IGNORE_TERM: "1" } : {}) });
      const c = relay(b);
      await c.initialize();
      c.call(1, "write_file", { path: join(b.project, "a.txt"), content: "x" });
      // Wait until the call reached the server, then vanish.
      for (let i = 0; i < 100 && !receivedWork(b.record).some((l) => l.includes("tools/call")); i++)
        await new Promise((r) => setTimeout(r, 20));
      c.child.stdin!.end();
      c.child.stdout!.destroy();
      const { code, signal } = await c.exited;
      expect(signal).toBeNull();
      expect(code).not.toBeNull();
      await expectNoOrphan(b.pidFile);
      const recs = wholeLogRecords(b.logDir);
      expect(recs.at(-1)?.type).toBe("exit");
    });
  }
});
