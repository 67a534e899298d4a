import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closingQuote, parseStrictJson } from "../../../src/core/json/strict-json.js";
import { canonicalHash, canonicalJson } from "../../../src/core/json/jcs.js";

describe("parseStrictJson", () => {
  it("accepts ordinary JSON and returns the same value as JSON.parse", () => {
    const text = '{"a":[1,2,{"b":"x\\"y"}],"c":null}';
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it("rejects duplicate keys, including spellings that differ only by escapes", () => {
    expect(parseStrictJson('{"name":"read_file","name":"write_file"}')).toEqual({
      ok: false,
      error: 'duplicate key "name"',
    });
    expect(parseStrictJson('{"a":{"name":1,"\\u006eame":2}}')).toMatchObject({ ok: false });
  });

  it("allows the same key in sibling objects and strings that look like keys", () => {
    expect(parseStrictJson('[{"a":1},{"a":2}]').ok).toBe(true);
    expect(parseStrictJson('{"a":"\\\\","b":"a"}').ok).toBe(true);
  });

  it("rejects nesting past the budget", () => {
    const deep = "[".repeat(70) + "]".repeat(70);
    expect(parseStrictJson(deep, 64)).toEqual({ ok: false, error: "nested deeper than 64 levels" });
    expect(parseStrictJson(deep, 100).ok).toBe(true);
  });

  it("reports invalid JSON", () => {
    expect(parseStrictJson("{nope").ok).toBe(false);
  });

  it("agrees with JSON.parse on any JSON it generates", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const text = JSON.stringify(v);
        expect(parseStrictJson(text, 100)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
  });
});

describe("canonicalJson (RFC 8785)", () => {
  it("orders members by UTF-16 code units and uses ECMAScript number forms", () => {
    expect(canonicalJson({ b: 1, a: [1e21, 1e-7, -0, 1.5], "\u20ac": "€", "\ud83d\ude00": 1 })).toBe(
      '{"a":[1e+21,1e-7,0,1.5],"b":1,"\u20ac":"€","\ud83d\ude00":1}',
    );
  });

  it("never changes its hash when keys are reordered", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalHash(reversed)).toBe(canonicalHash(obj));
      }),
    );
  });
});

describe("closingQuote", () => {
  it("finds the closing quote past escaped quotes and backslashes", () => {
    const text = '"a\\"b\\\\" rest';
    expect(closingQuote(text, 0)).toBe(7);
  });

  it("moves forward on a string that is never closed", () => {
    expect(closingQuote('"abc', 0)).toBe(3);
    expect(closingQuote('"ab\\"', 0)).toBe(4);
  });
});
