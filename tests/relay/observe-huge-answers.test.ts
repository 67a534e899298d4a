// Black-box (built CLI), defect 7 of the observe hunt: an answer over 16 MiB is read at observe
// as a cut text (docs/decisions/0053); the cut must keep what enforce's content scan reads of it,
// so that it taints at observe as at enforce (docs/decisions/0066).
import { describe, expect, it } from "vitest";
import { box, type Msg } from "../adversarial/gate-client.js";
import { decisionOf, events, LEVELS, runCommand, start, type Level } from "./observe-vs-enforce.js";

describe("an answer over 16 MiB of many short items", () => {
  it("taints at observe as at enforce: the cut keeps what the scan reads", async () => {
    const byLevel = {} as Record<Level, { taint: Msg[]; next: Msg | undefined }>;
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      // Item 250,000: past 4 Mi characters of JSON text, within the 4 Mi characters of strings
      // the scan reads.
      c.call(1, "big_answer", { count: 600_000, at: 250_000 });
      await c.answer(1, 60_000);
      c.send(runCommand(2));
      await c.answer(2);
      expect(await c.close()).toBe(0);
      byLevel[level] = {
        taint: events(b, "taint").map((t) => ({ id: t.id, reason: t.reason })),
        next: decisionOf(b, 2),
      };
    }
    // More text than the scan reads: the rest counts as untrusted too (issue 17, breach 3).
    expect(byLevel.observe.taint).toEqual([
      { id: 1, reason: "content" },
      { id: 1, reason: "unscanned" },
    ]);
    expect(byLevel.observe).toEqual(byLevel.enforce);
  }, 120_000);
});

describe("an answer over 16 MiB of mostly numbers", () => {
  it("is cut before the scan's budget at observe, and the log says the scan may have read less", async () => {
    const b = box();
    const c = start(b, "observe");
    await c.initialize();
    c.call(1, "big_answer", { count: 700_000, at: -1, numbers: true });
    await c.answer(1, 60_000);
    c.send(runCommand(2));
    await c.answer(2);
    expect(await c.close()).toBe(0);
    expect(events(b, "frame-cut")).toEqual([expect.objectContaining({ dir: "s2c", beforeScan: true })]);
    expect(events(b, "scan-partial")).toContainEqual(expect.objectContaining({ id: 1, frameCut: true }));
    // What the cut may have kept from the scan counts as untrusted (issue 17, breach 3).
    expect(events(b, "taint")).toContainEqual(expect.objectContaining({ id: 1, reason: "unscanned" }));
  }, 120_000);
});
