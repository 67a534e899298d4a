// Totals over the sessions a replay showed: one line that says how much happened, so that a
// long transcript (or a filtered one) ends with the numbers a reader came for.
import type { ReplayItem, ReplaySession } from "./replay-item.js";

export interface Totals {
  sessions: number;
  calls: number;
  refused: number;
  failed: number;
  unanswered: number;
  /** Sessions in which a response raised taint. */
  tainted: number;
  pinEvents: number;
  stderrLines: number;
  invalidLines: number;
  /** Lines shown, when a line filter chose them (else every line is shown). */
  linesShown?: number;
}

export function emptyTotals(): Totals {
  return {
    sessions: 0,
    calls: 0,
    refused: 0,
    failed: 0,
    unanswered: 0,
    tainted: 0,
    pinEvents: 0,
    stderrLines: 0,
    invalidLines: 0,
  };
}

/** Adds one shown session (with the lines shown of it) to `t`. */
export function addSession(
  t: Totals,
  s: ReplaySession,
  shown: readonly ReplayItem[],
  filtered: boolean,
): void {
  const m = s.summary.toJSON();
  t.sessions += 1;
  t.calls += m.calls;
  t.refused += m.refused;
  t.failed += m.failed;
  t.unanswered += m.unanswered;
  t.invalidLines += m.invalidLines;
  if (s.items.some((i) => i.marker === "TAINT")) t.tainted += 1;
  t.pinEvents += s.items.filter((i) => i.marker === "PIN").length;
  t.stderrLines += s.items.filter((i) => i.kind === "stderr").length;
  if (filtered) t.linesShown = (t.linesShown ?? 0) + shown.length;
}

const n = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/** `== totals: 3 sessions, 41 calls, 2 refused, …`. */
export function formatTotals(t: Totals): string {
  const parts = [
    `${n(t.sessions, "session")}, ${n(t.calls, "call")}, ${t.refused} refused, ${t.failed} failed, ${t.unanswered} unanswered`,
    `${n(t.tainted, "session")} tainted`,
    `${n(t.pinEvents, "pin event")}`,
    `${n(t.stderrLines, "server stderr line")}`,
    ...(t.invalidLines > 0 ? [n(t.invalidLines, "unreadable line")] : []),
    ...(t.linesShown !== undefined ? [`${n(t.linesShown, "line")} shown`] : []),
  ];
  return `== totals: ${parts.join("; ")}`;
}
