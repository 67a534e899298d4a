import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSharingLongStrings } from "../../../src/core/json/long-string-parse.js";

/** Same outcome as JSON.parse: the same value, or a throw where it throws. */
function outcome(parse: (t: string) => unknown, text: string): { value: unknown } | { threw: true } {
  try {
    return { value: parse(text) };
  } catch {
    return { threw: true };
  }
}

// Strings long enough to be swapped at a threshold of 4, with escapes, quotes, control
// characters and non-ASCII mixed in so every reason not to swap shows up.
const strArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom("a", "é", '"', "\\", "\n", "\u0001", "€", "x"), maxLength: 12 }),
);
const jsonArb = fc.jsonValue();
const valueArb = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    strArb,
    fc.integer(),
    fc.constant(null),
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(strArb, fc.constant("__proto__")), tie("node"), { maxKeys: 4 }),
  ),
})).node;

describe("parseSharingLongStrings", () => {
  it("gives what JSON.parse gives for any JSON text (threshold lowered to 4)", () => {
    fc.assert(
      fc.property(fc.oneof(valueArb, jsonArb), fc.constantFrom(0, 2), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        expect(parseSharingLongStrings(text, 4)).toEqual(JSON.parse(text));
      }),
    );
  });

  it("throws exactly where JSON.parse throws, for damaged texts", () => {
    fc.assert(
      fc.property(valueArb, fc.nat(), fc.constantFrom('"', "\\", "\u0002", "}", ",", ""), (v, at, insert) => {
        const text = JSON.stringify(v);
        const i = at % (text.length + 1);
        const damaged = text.slice(0, i) + insert + text.slice(i + (insert === "" ? 1 : 0));
        expect(outcome((t) => parseSharingLongStrings(t, 4), damaged)).toEqual(outcome(JSON.parse, damaged));
      }),
    );
  });

  it("keeps duplicate keys last-wins and a __proto__ member as data, like JSON.parse", () => {
    const text = '{"a":"first-long-value","a":"second-long-value","__proto__":"proto-long-value"}';
    const v = parseSharingLongStrings(text, 4) as Record<string, unknown>;
    expect(v).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["a", "__proto__"]);
  });

  it("does not confuse a frame's own text with its placeholders", () => {
    // `s` is below the threshold, so it stays as JSON.parse reads it, while `t` is swapped; a
    // guessable tag would let `s` be taken for t's placeholder.
    const text = JSON.stringify({ s: "\u2060effectgate:00:0", t: "x".repeat(30) });
    expect(parseSharingLongStrings(text, 20)).toEqual(JSON.parse(text));
  });

  it("refuses an unterminated long string like JSON.parse, even as the whole text", () => {
    expect(() => parseSharingLongStrings('{"a":"' + "x".repeat(100), 4)).toThrow(SyntaxError);
    // Swapped for a well-formed placeholder, this one alone would parse.
    expect(() => parseSharingLongStrings('"' + "x".repeat(10), 4)).toThrow(SyntaxError);
  });

  it("never swaps a member name, whatever whitespace stands before its colon", () => {
    for (const gap of [" ", "\n", "\t", "\r", " \r\n\t "]) {
      const text = `{"aaaaaaaaaa"${gap}:"bbbbbbbbbb"}`;
      expect(parseSharingLongStrings(text, 4)).toEqual(JSON.parse(text));
    }
  });

  it("leaves nulls, numbers and nested lists around swapped strings as they were", () => {
    const text = '[null, 1, "xxxxxxxxxx", {"k": null, "l": ["yyyyyyyyyy", null]}, [["zzzzzzzzzz"]], true]';
    expect(parseSharingLongStrings(text, 4)).toEqual(JSON.parse(text));
  });

  it("gives ordinary data properties, as JSON.parse does", () => {
    const v = parseSharingLongStrings('{"t":"xxxxxxxxxx"}', 4) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(v, "t")).toEqual({
      value: "xxxxxxxxxx",
      writable: true,
      enumerable: true,
      configurable: true,
    });
  });
});
