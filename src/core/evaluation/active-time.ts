// Active time: the denominator of "blocks per week". Idle time is not exposure, so a session
// counts from its first record to its last, minus every silence longer than IDLE_GAP_MS; and
// sessions that overlap in time (one client runs several servers at once) count once, as the
// union of their active stretches.

/** A silence longer than this inside a session is not counted as activity. */
export const IDLE_GAP_MS = 30 * 60 * 1000;
/** Below this much active time no rate is printed. */
export const MIN_ACTIVE_MS = 60 * 60 * 1000;
export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The stretches of one session between records at most idleGapMs apart. */
export function activeIntervals(times: readonly number[], idleGapMs = IDLE_GAP_MS): [number, number][] {
  const sorted = times.filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as number;
    const b = sorted[i] as number;
    if (b - a > idleGapMs || b === a) continue;
    const last = out[out.length - 1];
    if (last && last[1] === a) last[1] = b;
    else out.push([a, b]);
  }
  return out;
}

/** Total length covered by a set of intervals, overlaps counted once. */
export function unionLength(intervals: readonly (readonly [number, number])[]): number {
  const sorted = [...intervals].sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

export type Rate =
  | { ok: true; perWeek: number; blocks: number; calls: number }
  | { ok: false; blocks: number; calls: number; why: string };

/** Blocks per week of active time, or why it cannot be said. */
export function blocksPerWeek(blocks: number, calls: number, active: number): Rate {
  if (active < MIN_ACTIVE_MS) {
    const minutes = Math.floor(active / 60000);
    return {
      ok: false,
      blocks,
      calls,
      why: `not enough traffic to say: ${calls} calls over ${minutes === 1 ? "1 minute" : `${minutes} minutes`} of active time (need at least 60)`,
    };
  }
  return { ok: true, perWeek: (blocks * WEEK_MS) / active, blocks, calls };
}
