// Retention of session logs, run by each relay once its server runs (decision 0097).
import { keepSetting, pruneSessions } from "../log/retention.js";

/**
 * Deletes session logs past their retention. What it removed is recorded in this session's log;
 * a setting it cannot read is said on stderr, and then nothing is deleted.
 */
export async function prune(
  dir: string,
  log: { event(ev: string, data: Record<string, unknown>): void },
  warn: (line: string) => void,
  finished: () => boolean,
): Promise<void> {
  const keep = keepSetting(process.env);
  if (!keep.ok) return warn(keep.problem);
  if (keep.days === null) return;
  try {
    const pruned = await pruneSessions(dir, keep.days, Date.now());
    if (finished()) return;
    if (pruned.skipped !== undefined) log.event("logs-not-pruned", { dir, why: pruned.skipped });
    else if (pruned.removed > 0)
      log.event("logs-pruned", {
        dir,
        olderThanDays: keep.days,
        removed: pruned.removed,
        bytes: pruned.bytes,
      });
  } catch (err) {
    if (!finished()) warn(`could not delete old session logs in ${dir}: ${(err as Error).message}`);
  }
}
