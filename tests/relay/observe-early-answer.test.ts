// Black-box (built CLI), defect 1 of the observe hunt: at observe the server reads a call's start
// while the rest of its line still crosses, and a hostile one answers right then. That answer must
// still be observed (taint) as the answer of its call, as at enforce where the server only ever
// sees whole lines; and an answer to no request at all is logged and scanned at both levels
// (docs/decisions/0066-observe-reads-what-enforce-reads.md).
import { describe, expect, it } from "vitest";
import { box, type Msg } from "../adversarial/gate-client.js";
import { decisionOf, events, LEVELS, MiB, runCommand, start, type Level } from "./observe-vs-enforce.js";

describe("an answer that crosses before its call has", () => {
  it("is observed at observe once the call's line has ended, and taints as at enforce", async () => {
    const results = {} as Record<Level, { taint: Msg[]; next: Msg | undefined; stderr: string }>;
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      const line = JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "save_note", arguments: { early_id: 7, pad: "x".repeat(MiB) } },
      });
      if (level === "observe") {
        // Half the line, then the server's answer to it, then the rest: the race, made certain.
        c.write(line.slice(0, 4096));
        await c.answer(7);
        c.write(`${line.slice(4096)}\n`);
      } else c.write(`${line}\n`);
      await c.answer(7);
      c.send(runCommand(8));
      await c.answer(8);
      expect(await c.close()).toBe(0);
      results[level] = {
        taint: events(b, "taint").map((t) => ({ id: t.id, by: t.by, reason: t.reason })),
        next: decisionOf(b, 8),
        stderr: c.stderr,
      };
    }
    // Taken in as save_note's answer, not as an answer to nothing.
    expect(results.observe.taint).toEqual([{ id: 7, by: "save_note", reason: "content" }]);
    expect(results.observe.taint).toEqual(results.enforce.taint);
    expect(results.observe.next).toMatchObject({ verdict: "deny", tainted: true });
    expect(results.observe.next).toEqual(results.enforce.next);
    // The early answer answered its call: nothing was left unanswered.
    expect(results.observe.stderr).not.toMatch(/unanswered/);
  }, 60_000);

  it("that answers no request at all is logged and scanned, at both levels alike", async () => {
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      c.call(1, "stray", {});
      await c.answer(1);
      await c.answer("stray-1");
      c.send(runCommand(2));
      await c.answer(2);
      expect(await c.close()).toBe(0);
      expect(events(b, "answer-unmatched")).toEqual([{ id: "stray-1", readings: 1 }]);
      expect(events(b, "taint")).toEqual([
        expect.objectContaining({ id: "stray-1", by: "(no request)", reason: "content" }),
      ]);
      expect(decisionOf(b, 2)).toMatchObject({ verdict: "deny", tainted: true });
      expect(c.stderr).toMatch(/with id "stray-1", which answers no request effectgate knows of/);
    }
  }, 30_000);
});
