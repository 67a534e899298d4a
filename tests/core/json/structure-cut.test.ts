import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonTail } from "../../../src/core/json/json-tail.js";
import { JsonStructureCutter, type StructureCutCount } from "../../../src/core/json/structure-cut.js";
import {
  faultKindArb,
  inPieces,
  jsonFaultArb,
  jsonOf,
  parses,
  withFault,
  type Json,
} from "../../helpers/json-cut.js";

/** The text in pieces cut at the given offsets, through a cutter with the given budget. */
const cutText = (text: string, budget: number, offsets: number[] = []) =>
  inPieces(new JsonStructureCutter(budget), text, offsets);

const unitArb = fc.constantFrom("a", "Z", " ", '"', "\\", ",", "[", "}", ":", "\n", "é");
// Mostly short strings; some long enough that a dropped one is searched past its first characters.
const stringArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: unitArb, maxLength: 6 }) },
  fc.string({ unit: unitArb, minLength: 28, maxLength: 40 }),
);
const jsonArb = jsonOf(stringArb);

/** JSON text with `space` between every token, so whitespace sits wherever JSON allows it. */
function write(v: Json, space: string): string {
  if (Array.isArray(v)) return `[${space}${v.map((x) => write(x, space)).join(`${space},${space}`)}${space}]`;
  if (v !== null && typeof v === "object") {
    const members = Object.entries(v).map(
      ([k, x]) => `${JSON.stringify(k)}${space}:${space}${write(x, space)}`,
    );
    return `{${space}${members.join(`${space},${space}`)}${space}}`;
  }
  return JSON.stringify(v);
}

/** Frames of every shape the relay sees: a response, a request, a batch, and bare values. */
const frameArb: fc.Arbitrary<Json> = fc.oneof(
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.nat(),
    result: fc.record({ content: jsonArb, more: jsonArb }),
  }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.nat(),
    method: fc.constant("tools/call"),
    params: fc.record({
      name: fc.constant("x"),
      arguments: fc.dictionary(stringArb, jsonArb, { maxKeys: 4 }),
    }),
  }),
  fc.array(fc.record({ id: fc.nat(), result: fc.record({ content: jsonArb }) }), { maxLength: 3 }),
  jsonArb,
);
const spaceArb = fc.constantFrom("", " ", "\t\r\n ");
const budgetArb = fc.integer({ min: 0, max: 60 });
const offsetsArb = fc.array(fc.nat(), { maxLength: 12 });

/**
 * `kept` is `whole` with elements left out only where the cutter may leave them out: arrays are
 * prefixes, objects keep a subset of their members (each kept member trimmed the same way), and
 * nothing is missing at the top `whole` levels. Returns how many arrays and objects are short.
 */
function shortened(kept: unknown, whole: unknown, whole_levels: number): number {
  if (Array.isArray(whole)) {
    expect(Array.isArray(kept)).toBe(true);
    const k = kept as unknown[];
    if (whole_levels > 0) expect(k.length).toBe(whole.length);
    expect(k.length).toBeLessThanOrEqual(whole.length);
    return k.reduce<number>(
      (n, x, i) => n + shortened(x, whole[i], whole_levels - 1),
      k.length < whole.length ? 1 : 0,
    );
  }
  if (whole !== null && typeof whole === "object") {
    expect(kept !== null && typeof kept === "object" && !Array.isArray(kept)).toBe(true);
    const k = kept as Record<string, unknown>;
    const w = whole as Record<string, unknown>;
    const names = Object.keys(w);
    if (whole_levels > 0) expect(Object.keys(k).sort()).toEqual([...names].sort());
    for (const name of Object.keys(k)) expect(names).toContain(name);
    return Object.keys(k).reduce<number>(
      (n, name) => n + shortened(k[name], w[name], whole_levels - 1),
      Object.keys(k).length < names.length ? 1 : 0,
    );
  }
  expect(kept).toEqual(whole);
  return 0;
}

describe("JsonStructureCutter", () => {
  it("leaves a text within its budget exactly as it is", () => {
    fc.assert(
      fc.property(frameArb, spaceArb, offsetsArb, (v, space, offsets) => {
        const whole = write(v, space);
        expect(cutText(whole, whole.length, offsets)).toEqual({ text: whole, cut: undefined });
      }),
      { numRuns: 500 },
    );
  });

  it("parses to the whole value with only deep elements and members left out, and counts what it shortened", () => {
    fc.assert(
      fc.property(frameArb, spaceArb, budgetArb, offsetsArb, (v, space, budget, offsets) => {
        const whole = write(v, space);
        const { text, cut } = cutText(whole, budget, offsets);
        // A message keeps its own members and theirs: two levels, three in a batch.
        const levels = Array.isArray(v) ? 3 : 2;
        expect(cut?.containers ?? 0).toBe(shortened(JSON.parse(text), JSON.parse(whole), levels));
        // Text kept plus text dropped is the whole text.
        expect(text.length + (cut?.chars ?? 0)).toBe(whole.length);
      }),
      { numRuns: 3000 },
    );
  });

  it("is refused by JSON.parse exactly when the whole text is, wherever the fault is", () => {
    fc.assert(
      fc.property(
        frameArb,
        fc.nat(),
        faultKindArb,
        jsonFaultArb,
        budgetArb,
        offsetsArb,
        (v, at, how, ch, budget, offsets) => {
          const whole = write(v, "");
          const broken = withFault(whole, at, how, ch);
          expect(parses(cutText(broken, budget, offsets).text)).toBe(parses(broken));
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it("checks every token of a dropped tail as JSON.parse would", () => {
    const deep = (tail: string) => `{"result":{"content":[1${tail}]}}`;
    const long = "x".repeat(40);
    const valid = [
      ",2",
      ", -0.5e+3 ,true,false,null",
      ',"a\\u00e9\\n"',
      ",[],{}",
      ',{"k":[1,{"j":null}]}',
      ",1E9,-0,0.0",
      `,"${long}\\"${long}"`,
    ];
    const invalid = [
      ",01",
      ",1.",
      ",.5",
      ",+1",
      ",-",
      ",1e",
      ",1e+",
      ",tru",
      ",nul",
      ",True",
      ",'a'",
      ',"\\x"',
      ',"\\u12g4"',
      ',"a\u0001"',
      // A control character is not a backslash: what follows it is no escape.
      ',"a\u0001n"',
      ",,",
      ",]",
      ",{,}",
      ',{"a"}',
      ',{"a":}',
      ",{1:2}",
      ",[}",
      ",1 2",
      ",\u00a0",
      `,"${long}\u0001"`,
      `,"${long}\u0001t"`,
      `,"${long}\\q"`,
      `,"${long}`,
    ];
    for (const tail of valid) {
      expect(parses(deep(tail)), tail).toBe(true);
      const { text, cut } = cutText(deep(tail), 0);
      expect(JSON.parse(text), tail).toEqual({ result: { content: [1] } });
      expect(cut?.containers, tail).toBe(1);
    }
    for (const tail of [...invalid, ",undefined", ',"a":1', ',[1,"a":2]']) {
      expect(parses(deep(tail)), tail).toBe(false);
      expect(parses(cutText(deep(tail), 0).text), tail).toBe(false);
    }
    // The same in an object: members, not elements.
    const member = (tail: string) => `{"result":{"o":{"a":1${tail}}}}`;
    for (const tail of [',"b":2,"c":[1,{"d":null}]', ' , "b" : "x" ']) {
      expect(JSON.parse(cutText(member(tail), 0).text), tail).toEqual({ result: { o: { a: 1 } } });
    }
    for (const tail of [",2", ',"b"', ',"b":', ',"b" 1', ",[1]", ',"b":1,2']) {
      expect(parses(member(tail)), tail).toBe(false);
      expect(parses(cutText(member(tail), 0).text), tail).toBe(false);
    }
  });

  it("reads a frame whose first string is empty or starts with an escape", () => {
    for (const first of ['""', '"\\\\"', '"\\"x"']) {
      const text = `{${first}:0,"result":{"content":[1,2,3]}}`;
      const { text: kept, cut } = cutText(text, 0);
      expect(cut?.containers, first).toBe(1);
      expect((JSON.parse(kept) as { result: unknown }).result, first).toEqual({ content: [1] });
    }
  });

  it("never drops right after an opening bracket, where a comma is already wrong", () => {
    for (const text of ['{"result":{"content":[,1,2]}}', '{"result":{"content":[ \n,1,2]}}']) {
      expect(parses(cutText(text, 0).text), text).toBe(false);
      // However the text falls into pieces, the bracket is still seen before the comma.
      for (let at = 20; at < 26; at++)
        expect(parses(cutText(text, 0, [at]).text), `${text} at ${at}`).toBe(false);
    }
  });

  it("drops once the text kept before a comma is longer than the budget, not sooner", () => {
    const text = '{"result":{"content":[1,2]}}';
    const comma = text.indexOf(",");
    expect(cutText(text, comma).cut).toBeUndefined();
    expect(cutText(text, comma - 1)).toEqual({
      text: '{"result":{"content":[1]}}',
      cut: { containers: 1, chars: 2 },
    });
  });

  it("follows escaped quotes and backslashes in kept strings", () => {
    const text = '{"result":{"a":"x\\"y\\\\","content":[1,2,3]}}';
    expect(JSON.parse(text)).toEqual({ result: { a: 'x"y\\', content: [1, 2, 3] } });
    const { text: kept, cut } = cutText(text, 0, [18, 19, 20]);
    expect(JSON.parse(kept)).toEqual({ result: { a: 'x"y\\', content: [1] } });
    expect(cut?.containers).toBe(1);
  });

  it("keeps a message's members and their members, however much content comes first", () => {
    const content = Array.from({ length: 1000 }, (_, i) => ({ type: "text", text: `line ${i}` }));
    const frame = JSON.stringify({
      jsonrpc: "2.0",
      result: { content, isError: false, structuredContent: { rows: [1, 2, 3] } },
      id: 9,
    });
    const { text, cut } = cutText(frame, 100);
    const value = JSON.parse(text) as { id: number; result: Record<string, unknown> };
    expect(value.id).toBe(9);
    expect(value.result["isError"]).toBe(false);
    // Past the budget, each deeper container keeps its first element only.
    expect(value.result["structuredContent"]).toEqual({ rows: [1] });
    const kept = (value.result["content"] as unknown[]).length;
    expect(kept).toBeLessThan(10);
    // The content array and the rows array.
    expect(cut).toEqual<StructureCutCount>({ containers: 2, chars: frame.length - text.length });
  });

  it("holds about its budget of a frame of a million small elements", () => {
    const frame = `{"jsonrpc":"2.0","id":1,"result":{"data":[${"7,".repeat(1_000_000)}7]}}`;
    const budget = 4096;
    const { text, cut } = cutText(frame, budget, [100, 5000, 70_000, 1_500_000]);
    expect(text.length).toBeGreaterThan(budget);
    expect(text.length).toBeLessThan(budget + 64);
    expect(cut?.containers).toBe(1);
    expect((JSON.parse(text) as { result: { data: unknown[] } }).result.data.every((x) => x === 7)).toBe(
      true,
    );
  });

  it("refuses a negative budget", () => {
    expect(() => new JsonStructureCutter(-1)).toThrow(/expected budget to be at least 0, got -1/);
  });

  it("refuses to keep fewer than one level below a message, and takes one", () => {
    expect(() => new JsonStructureCutter(0, { keepLevels: 0 })).toThrow(
      /expected keepLevels to be at least 1, got 0/,
    );
    expect(() => new JsonStructureCutter(0, { keepLevels: Number.NaN })).toThrow(RangeError);
    expect(() => new JsonStructureCutter(0, { keepLevels: 1 })).not.toThrow();
  });
});

describe("JsonTail", () => {
  // Nested three deep, so that the run patterns never match and every character is read one by one.
  const deep = (inner: string) => `[0,[[[${inner}]]]]`;
  const read = (text: string, offsets: number[]): number => {
    const tail = new JsonTail("array");
    const points = [...new Set(offsets.map((o) => 2 + (o % (text.length - 1))))].sort((a, b) => a - b);
    let from = 2;
    for (const p of [...points, text.length]) {
      const end = tail.read(text.slice(0, p), from);
      if (end !== -1) return end;
      from = p;
    }
    return -1;
  };

  it("ends at the closing bracket exactly when JSON.parse accepts the text, read character by character", () => {
    fc.assert(
      fc.property(
        jsonArb,
        fc.boolean(),
        fc.nat(),
        faultKindArb,
        jsonFaultArb,
        offsetsArb,
        (v, broken, at, how, ch, offsets) => {
          const inner = broken ? withFault(write(v, " "), at, how, ch) : write(v, " ");
          const text = deep(inner);
          const end = read(text, offsets);
          expect(end === text.length - 1, text).toBe(parses(text));
          if (!broken) expect(end).toBe(text.length - 1);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("reads escapes, numbers and literals of every kind", () => {
    const valid = [
      '"\\u00e9\\u00E9\\uABCD\\"\\\\\\/\\b\\f\\n\\r\\t"',
      '"\\uFFFF\\uffff\\uaaaa\\u09af"',
      `"${"x".repeat(40)}"`,
      `"${"x".repeat(40)}\\n${"y".repeat(40)}"`,
      "-0.5e+3",
      "1E-9",
      "0",
      "10.25",
      "true",
      "false",
      "null",
      '{"a":[]}',
      "[{}]",
    ];
    const invalid = [
      '"\\u00G9"',
      '"\\u00g9"',
      '"\\u00/9"',
      '"\\u00:9"',
      '"\\u00@9"',
      '"\\u00`9"',
      `"${"x".repeat(40)}\u0001"`,
      `"${"x".repeat(40)}`,
      '"\\uabc"',
      '"\\a"',
      "00",
      "-",
      "1.",
      "1e",
      "1e+",
      ".1",
      "+1",
      "tru",
      "nulL",
      "True",
      '{"a"}',
      "{,}",
      "[1,]",
      '{"a":1,}',
    ];
    for (const v of valid) expect(read(deep(v), []), v).toBe(deep(v).length - 1);
    for (const v of invalid) expect(read(deep(v), []), v).toBe(-1);
  });
});
