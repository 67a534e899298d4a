import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonStringCutter } from "../../../src/core/json/string-cut.js";
import { inPieces, parses, withFault, type Json, jsonOf } from "../../helpers/json-cut.js";

/** The text in pieces cut at the given offsets, through a cutter keeping `keep` characters. */
const cutText = (text: string, keep: number, offsets: number[] = []) =>
  inPieces(new JsonStringCutter(keep), text, offsets);

// Characters that exercise every branch: quotes, backslashes, controls (escaped), a surrogate pair.
const charArb = fc.constantFrom(
  "a",
  "b",
  "Z",
  " ",
  '"',
  "\\",
  "/",
  "\n",
  "\u0001",
  "\u001f",
  "é",
  "😀",
  "u",
  "0",
);
const stringArb = fc.string({ unit: charArb, maxLength: 12 });
const jsonArb = jsonOf(stringArb);

/** How string characters are written: as JSON.stringify does, or with \u escapes in places. */
type Style = "plain" | "unicode" | "every-other";

function writeString(s: string, style: Style): string {
  if (style === "plain") return JSON.stringify(s);
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const escape = style === "unicode" || i % 2 === 1;
    out += escape ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : JSON.stringify(ch).slice(1, -1);
  }
  return `${out}"`;
}

/** JSON text for `v`; with `keep`, every string and member name first cut to that many characters. */
function write(v: Json, style: Style, space: string, keep = Infinity): string {
  const str = (s: string): string => writeString(s.slice(0, keep), style);
  if (typeof v === "string") return str(v);
  if (Array.isArray(v))
    return `[${space}${v.map((x) => write(x, style, space, keep)).join(`,${space}`)}${space}]`;
  if (v !== null && typeof v === "object") {
    const members = Object.entries(v).map(
      ([k, x]) => `${str(k)}${space}:${space}${write(x, style, space, keep)}`,
    );
    return `{${space}${members.join(`,${space}`)}${space}}`;
  }
  return JSON.stringify(v);
}

function longStrings(v: Json, keep: number): number[] {
  if (typeof v === "string") return v.length > keep ? [v.length - keep] : [];
  if (Array.isArray(v)) return v.flatMap((x) => longStrings(x, keep));
  if (v !== null && typeof v === "object")
    return Object.entries(v).flatMap(([k, x]) => [...longStrings(k, keep), ...longStrings(x, keep)]);
  return [];
}

const styleArb = fc.constantFrom<Style>("plain", "unicode", "every-other");
const spaceArb = fc.constantFrom("", " ", "\t\r\n ");
const offsetsArb = fc.array(fc.nat(), { maxLength: 12 });

describe("JsonStringCutter", () => {
  it("parses to the whole text's value with every string cut to `keep` characters, however the text is split", () => {
    fc.assert(
      fc.property(
        jsonArb,
        styleArb,
        spaceArb,
        fc.integer({ min: 1, max: 6 }),
        offsetsArb,
        (v, style, space, keep, offsets) => {
          const { text } = cutText(write(v, style, space), keep, offsets);
          // The reference writes the cut strings itself; JSON.parse settles member names made alike.
          expect(JSON.parse(text)).toEqual(JSON.parse(write(v, style, space, keep)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("counts the strings it cut and the characters of text it dropped", () => {
    fc.assert(
      fc.property(
        jsonArb,
        styleArb,
        fc.integer({ min: 1, max: 6 }),
        offsetsArb,
        (v, style, keep, offsets) => {
          const whole = write(v, style, "");
          const { text, cut } = cutText(whole, keep, offsets);
          const long = longStrings(v, keep);
          if (long.length === 0) {
            expect(cut).toBeUndefined();
            expect(text).toBe(whole);
            return;
          }
          expect(cut?.strings).toBe(long.length);
          // Every dropped character of a value is written with at least one character of text, and
          // text kept plus text dropped is the whole text.
          expect(cut?.chars).toBeGreaterThanOrEqual(long.reduce((a, b) => a + b, 0));
          expect(text.length + (cut?.chars ?? 0)).toBe(whole.length);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("drops exactly the characters past `keep` of a string without escapes", () => {
    const { text, cut } = cutText(`{"k":"${"x".repeat(100)}","s":"short"}`, 10, [3, 50, 99]);
    expect(text).toBe(`{"k":"${"x".repeat(10)}","s":"short"}`);
    expect(cut).toEqual({ strings: 1, chars: 90 });
  });

  it("keeps a string of exactly `keep` characters whole, and does not count it", () => {
    expect(cutText('["abcd","ab\\u0063d"]', 4)).toEqual({ text: '["abcd","ab\\u0063d"]', cut: undefined });
  });

  it("never splits an escape: the cut falls after a whole escape sequence", () => {
    const { text } = cutText('"a\\u00e9\\nbcdef"', 3, [4, 5, 6]);
    expect(text).toBe('"a\\u00e9\\n"');
    expect(JSON.parse(text)).toBe("aé\n");
  });

  it("is refused by JSON.parse exactly when the whole text is, even when the fault is in a dropped part", () => {
    // Valid texts with one character changed, added or removed: faults in and out of cut strings.
    const faultArb = fc.constantFrom('"', "\\", "u", "g", "0", "\u0001", "\u001f", "}", ",", " ", "\n");
    fc.assert(
      fc.property(
        jsonArb,
        styleArb,
        fc.nat(),
        fc.constantFrom<"insert" | "replace" | "delete">("insert", "replace", "delete"),
        faultArb,
        fc.integer({ min: 1, max: 4 }),
        offsetsArb,
        (v, style, at, how, ch, keep, offsets) => {
          const whole = write(v, style, "");
          const broken = withFault(whole, at, how, ch);
          expect(parses(cutText(broken, keep, offsets).text)).toBe(parses(broken));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("refuses faults that only the dropped part shows", () => {
    for (const fault of ["\u0001", "\\x", "\\u12g4", "\\"]) {
      const line = `{"a":"${"y".repeat(20)}${fault}${"y".repeat(5)}"}`;
      expect(parses(line)).toBe(false);
      const { text, cut } = cutText(line, 8);
      expect(parses(text), JSON.stringify(fault)).toBe(false);
      expect(cut?.strings).toBe(1);
    }
  });

  it("accepts every hex digit of a dropped \\u escape in either case, and nothing next to them", () => {
    for (const digit of "0123456789abcdefABCDEF") {
      expect(cutText(`"xx\\u00${digit}${digit}"`, 1).text, digit).toBe('"x"');
    }
    for (const near of "/:@G`g") {
      const { text } = cutText(`"xx\\u00${near}0"`, 1);
      expect(parses(text), near).toBe(false);
    }
  });

  it("keeps text outside strings whole, and a line that is not JSON as it is", () => {
    const notJson = `${"word ".repeat(50)}"${"q".repeat(30)}`;
    // The string never ends: the line is refused either way, and the cut is still counted.
    expect(cutText(notJson, 5)).toEqual({
      text: `${"word ".repeat(50)}"qqqqq`,
      cut: { strings: 1, chars: 25 },
    });
    expect(cutText("[1, 2.5e3, true, null]", 1).text).toBe("[1, 2.5e3, true, null]");
  });

  it("asks for a positive number of characters to keep", () => {
    expect(() => new JsonStringCutter(0)).toThrow("expected keep to be at least 1, got 0");
  });
});
