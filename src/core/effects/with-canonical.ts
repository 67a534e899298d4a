import type { Effect } from "../types.js";

/**
 * `{ ...effect, canonical }`, the same own keys in the same order (so logs keep their bytes).
 * V8 compiles that spread-plus-property to a generic runtime copy, ten times slower than this:
 * it was the largest single cost of a decision (decision 0140).
 */
export function withCanonical(effect: Effect, canonical: string): Effect {
  const copy = Object.assign({}, effect);
  copy.canonical = canonical;
  return copy;
}
