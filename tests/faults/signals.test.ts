import { constants } from "node:os";
import { describe, expect, it } from "vitest";
import { box, GateClient, LENIENT_SERVER, receivedWork } from "../adversarial/gate-client.js";
import { expectNoOrphan, wholeLogRecords } from "./fault-checks.js";

// A signal arrives while a large denied frame is half-way in. effectgate passes it on, exits with
// 128+n (or the server's own code), leaves no server behind and no torn record, and nothing of
// the half frame reaches the server.

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("signals during a large frame", () => {
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(
      `${sig}: exit 128+${constants.signals[sig]}, no orphan, whole log, nothing relayed`,
      { timeout: 60_000 },
      async () => {
        const b = box();
        const c = new GateClient(
          ["--level", "enforce", "--log-dir", b.logDir, "--", process.execPath, LENIENT_SERVER],
          b.env,
        );
        await c.initialize();
        const frame = Buffer.from(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 9,
            method: "tools/call",
            params: {
              name: "write_file",
              arguments: { content: "B".repeat(16 * 1024 * 1024), path: "~/.bashrc" },
            },
          }) + "\n",
        );
        const half = frame.subarray(0, frame.length >> 1);
        await new Promise<void>((resolve) => c.child.stdin!.write(half, () => resolve()));
        await pause(100);
        c.child.kill(sig);
        const { code, signal } = await c.exited;
        expect(signal).toBeNull(); // effectgate handled it and chose its exit code
        expect(code).toBe(128 + constants.signals[sig]);
        await expectNoOrphan(b.pidFile);
        const recs = wholeLogRecords(b.logDir);
        expect(recs.at(-1)?.type).toBe("exit");
        expect(receivedWork(b.record)).toEqual([]);
        expect(c.answers(9)).toEqual([]);
        // Last, so the checks above are reported on their own: the human is told what happened.
        expect(c.stderr).toContain(sig);
      },
    );
  }
});
