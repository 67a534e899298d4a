import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Correlator, looseIdKey } from "../../../src/relay/server/correlate.js";

const req = (id: number | string, method = "tools/call") => ({ method, id, params: {} });

describe("Correlator", () => {
  it('answers an exact id once, and keeps 1 and "1" apart', () => {
    const c = new Correlator();
    c.sent(req(1));
    c.sent(req("1", "tools/list"));
    const exact = c.answered("1", {});
    expect(exact).toEqual({
      answers: [{ request: req("1", "tools/list"), origin: req("1", "tools/list") }],
      loose: false,
    });
    expect(c.answered(1, {}).answers.map((a) => a.request.id)).toEqual([1]);
    expect(c.size).toBe(0);
    expect(c.answered(1, {})).toEqual({ answers: [], loose: true });
  });

  it("shows a loosely matching answer for every request a lax client could match, and keeps them pending", () => {
    const c = new Correlator();
    c.sent(req(1, "tools/list"));
    c.sent(req(2));
    for (const spelled of ["1", "01", "0x1", " 1", "1.0", "1e0"]) {
      const a = c.answered(spelled, {});
      expect(a.loose).toBe(true);
      expect(a.answers.map((p) => p.request.method)).toEqual(["tools/list"]);
    }
    expect(c.size).toBe(2);
    expect(c.answered("x", {}).answers).toEqual([]);
  });

  it("forgets the loose spelling of a dropped, answered or evicted request", () => {
    const c = new Correlator();
    c.sent(req(7));
    c.drop(7);
    expect(c.answered("7", {}).answers).toEqual([]);
    c.sent(req(8));
    c.answered(8, {});
    expect(c.answered("8", {}).answers).toEqual([]);
    // Past 10,000 pending requests the oldest goes, from both tables.
    for (let i = 0; i <= 10_000; i++) c.sent(req(`r${i}`));
    c.sent(req(9));
    expect(c.size).toBe(10_000);
    expect(c.answered("r0", {}).answers).toEqual([]);
    expect(c.answered("9", {}).answers.map((p) => p.request.id)).toEqual([9]);
  });

  it("a request sent again under the same id is one pending request", () => {
    const c = new Correlator();
    c.sent(req(3));
    c.sent(req(3, "tools/list"));
    expect(c.size).toBe(1);
    expect(c.answered("3", {}).answers.map((p) => p.request.method)).toEqual(["tools/list"]);
  });

  it("loose keys agree with JavaScript's == between a number and a string", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
        fc.string(),
        (n, s) => {
          // The lax comparison is the point.
          expect(looseIdKey(n) === looseIdKey(s)).toBe(n == (s as unknown as number));
        },
      ),
    );
  });
});
