// The structure cut of a server line keeps what the content scan reads (structure-cut-scan.test.ts);
// these check the other side, that it keeps no more than that of `result` and `error`: it drops
// the rest of a container at the first comma after the scan's measure (each non-empty string one
// more than its length) is passed, counting each member apart, and the last of a repeated one.
import { describe, expect, it } from "vitest";
import { JsonStructureCutter } from "../../../src/core/json/structure-cut.js";

/** The strings the scan reads of `strings` within `chars`: up to the first that passes it. */
function readWithin(strings: string[], chars: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const s of strings) {
    if (used > chars) break;
    out.push(s);
    if (s.length > 0) used += s.length + 1;
  }
  return out;
}

function cut(text: string, chars: number): unknown {
  const c = new JsonStructureCutter(1e9, { scan: { chars } });
  c.add(text);
  const r = c.finish();
  expect(r.cut?.beforeScan).toBeUndefined();
  return JSON.parse(r.text);
}

const S = ["aaaa", "bbbb", "cccc", "dddd", "eeee"];

describe("the scan's share of a server line", () => {
  it("goes up to the first string past the measure, and no further", () => {
    for (const chars of [4, 9, 10, 12, 14, 15, 19]) {
      const kept = cut(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: S } }), chars);
      expect(kept).toEqual({ jsonrpc: "2.0", id: 1, result: { content: readWithin(S, chars) } });
    }
  });

  it("counts nothing for empty strings", () => {
    const strings = ["", "", "aaaa", "bbbb", "cccc", "dddd"];
    const kept = cut(JSON.stringify({ id: 1, result: { content: strings } }), 9);
    expect(kept).toEqual({ id: 1, result: { content: readWithin(strings, 9) } });
  });

  it("gives `error` before `result` a share of its own, and each message its own", () => {
    const one = { id: 1, error: { data: S }, result: { content: S } };
    const want = { id: 1, error: { data: readWithin(S, 9) }, result: { content: readWithin(S, 9) } };
    expect(cut(JSON.stringify(one), 9)).toEqual(want);
    expect(cut(JSON.stringify([one, { ...one, id: 2 }]), 9)).toEqual([want, { ...want, id: 2 }]);
  });

  it("counts only the last of a repeated `result`, the one JSON.parse keeps", () => {
    const text = `{"id":1,"result":{"c":["${"x".repeat(20)}","y","z"]},"result":{"content":${JSON.stringify(S)}}}`;
    expect(cut(text, 12)).toEqual({ id: 1, result: { content: readWithin(S, 12) } });
  });

  it("does not take a long member name, or other members, for `result`", () => {
    const text = JSON.stringify({ id: 1, resultsAndMore: { c: S }, other: { c: S }, result: { content: S } });
    expect(cut(text, 9)).toEqual({
      id: 1,
      resultsAndMore: { c: S },
      other: { c: S },
      result: { content: readWithin(S, 9) },
    });
  });
});
