/**
 * When the content scan stops short of a response (its text budget, the budget or caps of what
 * encodings and hidden markup reveal, or a frame cut for reading before the scan's share was
 * kept), what it did not read is said and counts as untrusted: a signature can only be found
 * in text that was read, so text past a cut could hold the instruction the scan exists to find
 * (issue 17, breach 3). Pure: the relay, `eval` and `check` reach the same verdict.
 */
import type { PartialScan } from "../gate/session-judge.js";

/** The scan's own counts for one response, and whether its frame was cut first. */
export interface ScanCounts {
  scanned: number;
  of: number;
  layersLeft: number;
  revealCapped: number;
  frameCut: boolean;
}

/** The partial-scan facts of a response, or undefined when the scan read all of it. */
export function partialScan(c: ScanCounts): PartialScan | undefined {
  if (c.scanned >= c.of && c.layersLeft === 0 && c.revealCapped === 0 && !c.frameCut) return undefined;
  const { scanned, of, layersLeft, revealCapped } = c;
  return { scanned, of, layersLeft, revealCapped, ...(c.frameCut ? { frameCut: true as const } : {}) };
}

/** One sentence for the `taint` record: what was left unscanned, and that it counts as untrusted. */
export function unscannedWhy(p: PartialScan): string {
  const parts: string[] = [];
  if (p.scanned < p.of) parts.push(`read ${p.scanned} of ${p.of} characters of text`);
  if (p.layersLeft > 0)
    parts.push(`left ${p.layersLeft} decoded or hidden layer${p.layersLeft === 1 ? "" : "s"} unread`);
  if (p.revealCapped > 0)
    parts.push(
      `stopped decoding at its caps in ${p.revealCapped} window${p.revealCapped === 1 ? "" : "s"} of text`,
    );
  if (p.frameCut === true) parts.push("read a frame cut for reading before the scan's share was kept");
  return `the content scan ${parts.join(", ")}; what it did not read counts as untrusted`;
}
