// The numbers `effectgate eval` takes on its command line (the options are declared in
// src/commands/eval.ts): what counts as a fraction and as a count is part of the measurement.
import { UsageError } from "../errors.js";

/** Plain decimal notation only: Number() would also take 0x1, 1e-1, Infinity and " 1". */
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function decimal(text: string, percent: boolean): number {
  const isPct = percent && text.endsWith("%");
  const digits = isPct ? text.slice(0, -1) : text;
  if (!DECIMAL.test(digits)) throw new UsageError(`expected a non-negative number, got "${text}"`);
  // `e-2` shifts the decimal point, so 84.5% is exactly the number 0.845 (84.5 / 100 is not).
  return Number(isPct ? `${digits}e-2` : digits);
}

/** A recall threshold: a fraction from 0 to 1, or a percentage ("90%"). */
export function parseFraction(text: string): number {
  const v = decimal(text, true);
  if (v > 1) throw new UsageError(`expected a fraction from 0 to 1 (or a percentage), got "${text}"`);
  return v;
}

/** A count such as blocks per week: any non-negative decimal, no percent sign. */
export function parseCount(text: string): number {
  return decimal(text, false);
}
