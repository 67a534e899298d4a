/** Helpers shared by the tests of the streaming JSON cutters. */
import fc from "fast-check";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** JSON values of every kind, small and nested, with strings (and member names) from `strings`. */
export function jsonOf(strings: fc.Arbitrary<string>): fc.Arbitrary<Json> {
  return fc.letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      strings,
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(strings, tie("value"), { maxKeys: 4 }),
    ),
  })).value;
}

/** Feeds `text` to a streaming reader in pieces cut at the given offsets, then finishes it. */
export function inPieces<T>(
  reader: { add(piece: string): void; finish(): T },
  text: string,
  offsets: number[] = [],
): T {
  const points = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  let prev = 0;
  for (const p of points) {
    reader.add(text.slice(prev, p));
    prev = p;
  }
  reader.add(text.slice(prev));
  return reader.finish();
}

export function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** How a fault is made: a character inserted, replaced or removed. */
export const faultKindArb = fc.constantFrom<"insert" | "replace" | "delete">("insert", "replace", "delete");

/** Characters that matter to JSON's grammar somewhere: what a fault puts into a text. */
export const jsonFaultArb = fc.constantFrom(
  ...[
    '"',
    "\\",
    "u",
    "0",
    "9",
    "-",
    ".",
    "e",
    "E",
    "+",
    "f",
    "n",
    "t",
    "\u0001",
    "}",
    "]",
    "{",
    "[",
    ",",
    ":",
    " ",
  ],
);

/** `text` with one character inserted, replaced or removed at `at` (taken modulo its length). */
export function withFault(
  text: string,
  at: number,
  how: "insert" | "replace" | "delete",
  ch: string,
): string {
  const i = at % (text.length + 1);
  if (how === "insert") return text.slice(0, i) + ch + text.slice(i);
  return text.slice(0, i) + (how === "replace" ? ch : "") + text.slice(i + 1);
}
