/**
 * How much of a call's arguments is read before the call is refused as too large to judge
 * (docs/decisions/0022-extraction-budget.md). The extraction is never partial: past the budget
 * the whole extraction fails.
 */
export const BUDGET = {
  /** Nesting of arrays/objects, counting each embedded JSON document as one more level. */
  maxDepth: 48,
  /** Strings examined (values, keys and command words). */
  maxStrings: 50_000,
  /** Characters in those strings. */
  maxChars: 8 * 1024 * 1024,
} as const;

/** The arguments are beyond the budget: judged as "too large to judge". */
export class OverBudget extends Error {}
