// Units behind defect 7 of the observe hunt (docs/decisions/0066): the structure cut of a big
// server line keeps every string the content scan reads of each answer (taint/observe.ts
// responseWindows), unless it says it cut first (`beforeScan`), and never changes whether the
// text parses.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonStructureCutter, type StructureCutOptions } from "../../../src/core/json/structure-cut.js";
import {
  faultKindArb,
  inPieces,
  jsonFaultArb,
  parses,
  withFault,
  type Json,
} from "../../helpers/json-cut.js";

/**
 * The strings the content scan reads of an answer, in its order (taint/observe.ts
 * responseWindows: values of `result` then `error`, at any depth), until `budget`
 * characters as it counts them (each non-empty string one more than its length).
 */
function scannedPrefix(message: Json, budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  const walk = (v: Json | undefined): void => {
    if (used > budget || v === undefined) return;
    if (typeof v === "string") {
      if (v.length === 0) return;
      out.push(v);
      used += v.length + 1;
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  if (message !== null && typeof message === "object" && !Array.isArray(message)) {
    walk(message.result);
    walk(message.error);
  }
  return out;
}

// Member names that are never array indices, so objects keep their members in text order.
const nameArb = fc.constantFrom("type", "text", "a", "é", "result", "error", "k\u0000", "x y");
const valueStringArb = fc.string({
  unit: fc.constantFrom("a", "é", "\n", '"', "\\", "\u2028", "𝄞"),
  maxLength: 12,
});
const leafArb = fc.oneof(valueStringArb, fc.integer({ min: -9, max: 99 }), fc.constant(null));
const contentArb: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    leafArb,
    fc.array(tie("v"), { maxLength: 6 }),
    fc.dictionary(nameArb, tie("v"), { maxKeys: 4 }),
  ),
})).v;
const answerArb = fc.record(
  {
    jsonrpc: fc.constant("2.0"),
    id: fc.nat(),
    other: contentArb,
    result: fc.record({ content: fc.array(contentArb, { maxLength: 8 }), more: contentArb }),
    error: contentArb,
  },
  { requiredKeys: ["jsonrpc", "id", "result"] },
);
/** The same answer with its members in another order (`error` before `result`, say). */
const reorderedArb = answerArb.chain((a) => {
  const entries = Object.entries(a);
  return fc
    .shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length })
    .map((e) => Object.fromEntries(e) as Json);
});
const oneArb = fc.oneof(answerArb, reorderedArb);
const frameArb = fc.oneof(oneArb, fc.array(oneArb, { minLength: 1, maxLength: 3 }));

const scanCut = (budget: number, rest: number): StructureCutOptions & { rest: number } => ({
  scan: { chars: budget },
  rest,
});

function cutWith(text: string, o: ReturnType<typeof scanCut>, offsets: number[]) {
  return inPieces(new JsonStructureCutter(o.rest, o), text, offsets);
}

describe("the structure cut of server lines", () => {
  it("keeps every string the scan reads of each answer, unless it says it cut first", () => {
    fc.assert(
      fc.property(
        frameArb,
        fc.nat({ max: 120 }),
        fc.oneof(fc.constant(1e9), fc.nat({ max: 400 })),
        fc.array(fc.nat(), { maxLength: 6 }),
        (frame, budget, rest, offsets) => {
          const text = JSON.stringify(frame);
          const { text: kept, cut: count } = cutWith(text, scanCut(budget, rest), offsets);
          const whole = JSON.parse(text) as Json;
          const read = JSON.parse(kept) as Json;
          const messages = (v: Json): Json[] => (Array.isArray(v) ? v : [v]);
          if (rest === 1e9) expect(count?.beforeScan).toBeUndefined();
          if (count?.beforeScan) return;
          messages(whole).forEach((m, i) => {
            const wanted = scannedPrefix(m, budget);
            expect(scannedPrefix(messages(read)[i] as Json, budget).slice(0, wanted.length)).toEqual(wanted);
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("is refused by JSON.parse exactly when the whole text is", () => {
    fc.assert(
      fc.property(
        frameArb,
        faultKindArb,
        fc.nat(),
        jsonFaultArb,
        fc.nat({ max: 60 }),
        fc.nat({ max: 200 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (frame, kind, at, ch, budget, rest, offsets) => {
          const text = withFault(JSON.stringify(frame), at, kind, ch);
          const { text: kept } = cutWith(text, scanCut(budget, rest), offsets);
          expect(parses(kept)).toBe(parses(text));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
