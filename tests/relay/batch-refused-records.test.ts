// Black-box (built CLI), defect 8 of the observe hunt (relay half): a batch is refused whole at
// enforce when any call in it is, so every call in it gets a decision saying it was refused
// (allowed ones too), and observe records what enforce would do (docs/decisions/0066).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, isRefusal, receivedWork, type Msg } from "../adversarial/gate-client.js";
import { events, LEVELS, start, type Level } from "./observe-vs-enforce.js";

const call = (id: number, name: string, args: Msg): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("a batch with a refused call", () => {
  it("records every call in it as refused with the batch at enforce, and as enforce would at observe", async () => {
    const byLevel = {} as Record<Level, Msg[]>;
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      c.send([
        call(1, "read_file", { path: join(b.project, "a.txt") }),
        call(2, "run_command", { command: "deploy-tool --all" }),
        call(3, "write_file", { path: join(b.home, ".ssh", "authorized_keys"), content: "x" }),
      ]);
      for (const id of [1, 2, 3]) expect(isRefusal(await c.answer(id))).toBe(level === "enforce");
      // A batch of allowed calls alone is relayed; each is recorded with what it reads.
      c.send([
        call(4, "read_file", { path: join(b.project, "b.txt") }),
        call(5, "read_file", { path: join(b.project, "c.txt") }),
      ]);
      await c.answer(4);
      await c.answer(5);
      expect(await c.close()).toBe(0);
      if (level === "enforce") expect(receivedWork(b.record)).toEqual([expect.stringContaining('"id":4')]);
      byLevel[level] = events(b, "decision").map((d) => ({
        id: d.id,
        verdict: d.verdict,
        outcome: d.outcome,
        batchRefusedBy: d.batchRefusedBy,
      }));
    }
    expect(byLevel.enforce).toEqual([
      { id: 1, verdict: "allow", outcome: "refuse", batchRefusedBy: 3 },
      { id: 2, verdict: "confirm", outcome: "refuse", batchRefusedBy: 3 },
      { id: 3, verdict: "deny", outcome: "refuse", batchRefusedBy: undefined },
      { id: 4, verdict: "allow", outcome: "forward", batchRefusedBy: undefined },
      { id: 5, verdict: "allow", outcome: "forward", batchRefusedBy: undefined },
    ]);
    // At observe the outcome is what happened (forwarded); batchRefusedBy says what enforce does.
    expect(byLevel.observe).toEqual([
      { id: 1, verdict: "allow", outcome: "forward", batchRefusedBy: 3 },
      { id: 2, verdict: "confirm", outcome: "forward", batchRefusedBy: 3 },
      { id: 3, verdict: "deny", outcome: "forward", batchRefusedBy: undefined },
      { id: 4, verdict: "allow", outcome: "forward", batchRefusedBy: undefined },
      { id: 5, verdict: "allow", outcome: "forward", batchRefusedBy: undefined },
    ]);
  }, 30_000);
});
