import { describe, expect, it } from "vitest";
import { DialogLimiter } from "../../../src/core/gate/dialog-limit.js";

const limits = { perWindow: 3, windowMs: 60_000, quietMs: 300_000 };

/** Opens and closes one dialog at `t`; whether it could open. */
function turn(l: DialogLimiter, t: number): boolean {
  const r = l.take(t);
  if (r.ok) l.close();
  return r.ok;
}

describe("DialogLimiter", () => {
  it("opens one dialog at a time", () => {
    const l = new DialogLimiter(limits);
    expect(l.take(0)).toEqual({ ok: true });
    expect(l.take(1)).toEqual({ ok: false, why: "another desktop question was open" });
    l.close();
    expect(l.take(2).ok).toBe(true);
  });

  it("refuses past perWindow within the window, then stays quiet for quietMs", () => {
    const l = new DialogLimiter(limits);
    expect([0, 1000, 2000].map((t) => turn(l, t))).toEqual([true, true, true]);
    const over = l.take(3000);
    expect(over).toEqual({
      ok: false,
      why: "too many questions: more than 3 within 60 s, none for 300 s",
    });
    // The window has passed, but the quiet time has not: still refused, with the time left.
    expect(l.take(70_000)).toEqual({ ok: false, why: "too many questions: no desktop question for 233 s" });
    expect(turn(l, 302_999)).toBe(false);
    expect(turn(l, 303_000)).toBe(true);
  });

  it("counts only the dialogs of the last window", () => {
    const l = new DialogLimiter(limits);
    expect([0, 10_000, 20_000].map((t) => turn(l, t))).toEqual([true, true, true]);
    // The first one is 60 s old at 60 000: it no longer counts.
    expect(turn(l, 60_000)).toBe(true);
    expect(turn(l, 61_000)).toBe(false);
  });

  it("ships with at most five dialogs a minute", () => {
    const l = new DialogLimiter();
    const opened = Array.from({ length: 8 }, (_, i) => turn(l, i * 1000));
    expect(opened).toEqual([true, true, true, true, true, false, false, false]);
  });

  it("ships with five minutes of quiet once the limit is reached", () => {
    const l = new DialogLimiter();
    expect([0, 1000, 2000, 3000, 4000].map((t) => turn(l, t))).toEqual([true, true, true, true, true]);
    expect(l.take(5000)).toEqual({
      ok: false,
      why: "too many questions: more than 5 within 60 s, none for 300 s",
    });
    expect(l.take(5001)).toEqual({ ok: false, why: "too many questions: no desktop question for 300 s" });
    expect(turn(l, 304_999)).toBe(false);
    expect(turn(l, 305_000)).toBe(true);
  });
});
