/** How much a change matters to a reviewer; the runtime refuses every change regardless. */
export type Severity = "high" | "medium" | "low";

/** One sentence of a diff; `was`/`now` carry untrusted text shown under it. */
export interface Finding {
  text: string;
  severity: Severity;
  was?: string | null;
  now?: string | null;
}

const RANK: Record<Severity, number> = { low: 0, medium: 1, high: 2 };

export function maxSeverity(findings: readonly { severity: Severity }[]): Severity {
  let best: Severity = "low";
  for (const f of findings) if (RANK[f.severity] > RANK[best]) best = f.severity;
  return best;
}
