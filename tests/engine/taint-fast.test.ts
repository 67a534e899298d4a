/**
 * The content scan was rewritten for speed; these keep the earlier, plainer implementations as
 * references and check that the fast ones give the same answers on inputs rich in the characters
 * each one treats specially.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Runs } from "../../src/core/taint/normalise.js";

// ---- References: the implementations as they were before the speed work. ----

const REF_BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}/g;
function refBase64Runs(text: string): string[] {
  return [...text.matchAll(REF_BASE64_RUN)].map((m) => m[0]);
}

// ---- Generators: text made of the pieces each function treats specially. ----

/** Text joined from `pieces`, some of them long enough to matter to the per-length budgets. */
const textOf = (pieces: readonly string[], maxLength = 40) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((a) => a.join(""));

const BASE64_PIECES = [
  ..."aZ09+/_-=",
  "==",
  "===",
  "A".repeat(20),
  "b".repeat(23),
  "Q".repeat(24),
  "xY".repeat(13),
  "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=",
  " ",
  ".",
  "\n",
  "é",
  "\u00c1",
  "\u4e00",
  "😀",
];

const RUNS = { numRuns: 2000 };

describe("fast base64 runs", () => {
  it("finds the same runs, in order, as the look-behind regex", () => {
    fc.assert(
      fc.property(textOf(BASE64_PIECES, 60), (t) => {
        expect([...base64Runs(t)]).toEqual(refBase64Runs(t));
      }),
      RUNS,
    );
  });

  it("finds runs at the very start and end, and one run per stretch between `=`", () => {
    const run = "A".repeat(24);
    expect([...base64Runs(run)]).toEqual([run]);
    expect([...base64Runs(`${run}==${run}=`)]).toEqual([`${run}==`, `${run}=`]);
    expect([...base64Runs(`.${run.slice(1)}`)]).toEqual([]);
    expect([...base64Runs(`${"A".repeat(23)}é${run}===x`)]).toEqual([`${run}==`]);
  });
});
