// The thresholds of `effectgate eval`. A threshold that cannot be checked is not met: a corpus
// that was not measured (or held nothing to measure) fails its threshold, and says why.
import type { BenignReport } from "./benign.js";
import type { RecallReport } from "./recall.js";

/**
 * `value` with the fewest digits (at least 3) that still show it below `limit`, so that a
 * message never reads "0.845 is below 0.845" for 49/58 = 0.84482….
 */
export function digitsBelow(value: number, limit: number): string {
  for (let digits = 3; digits < 20; digits += 1) {
    const text = value.toFixed(digits);
    if (Number(text) < limit) return text;
  }
  return String(value);
}

export function thresholdFailures(
  thresholds: { minRecall?: number; maxBlocksPerWeek?: number },
  attack: RecallReport | undefined,
  benign: BenignReport | undefined,
): string[] {
  const failures: string[] = [];
  const { minRecall, maxBlocksPerWeek } = thresholds;
  if (minRecall !== undefined) {
    const ratio = attack?.perLevel.enforce;
    if (attack === undefined)
      failures.push(`--min-recall ${minRecall} cannot be checked: no attack scenarios were measured`);
    else if (ratio === undefined || ratio.recall === null)
      failures.push(`--min-recall ${minRecall} cannot be checked: no visible attack scenario to measure`);
    else if (ratio.recall < minRecall)
      failures.push(
        `recall at enforce ${ratio.stopped}/${ratio.total} = ${digitsBelow(ratio.recall, minRecall)} is below --min-recall ${minRecall}`,
      );
  }
  if (maxBlocksPerWeek !== undefined) {
    const flag = `--max-blocks-per-week ${maxBlocksPerWeek}`;
    if (benign === undefined) failures.push(`${flag} cannot be checked: no benign logs were measured`);
    else if (benign.sessions === 0)
      failures.push(
        `${flag} cannot be checked: no session in the benign logs could be measured (${benign.unreadableLines} unreadable log lines, ${benign.excluded.length} sessions excluded)`,
      );
    else if (!benign.enforce.ok) failures.push(`${flag} cannot be checked: ${benign.enforce.why}`);
    else if (benign.enforce.perWeek > maxBlocksPerWeek)
      failures.push(`blocks per week at enforce ${benign.enforce.perWeek.toFixed(1)} is above ${flag}`);
  }
  return failures;
}
