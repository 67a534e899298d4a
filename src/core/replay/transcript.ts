// From log entries to a transcript: one item per frame member, event, stderr line or bad line,
// plus a summary per session. Pure and deterministic: the same entries give the same transcript.
// Each session is built by session-builder.ts; here the entries are split into sessions.
import type { LogEntry } from "./entries.js";
import type { ReplayItem, ReplaySession } from "./replay-item.js";
import { SessionBuilder } from "./session-builder.js";

/**
 * Split entries into sessions (a new `sid` starts one) and build each transcript. The parts of a
 * rotated session, given in order, are one session: their header copies are skipped.
 */
export function buildTranscript(entries: readonly LogEntry[]): ReplaySession[] {
  const out: ReplaySession[] = [];
  let current: SessionBuilder | undefined;
  for (const e of entries) {
    if ("error" in e) {
      current ??= new SessionBuilder("(unknown)", undefined);
      current.invalid(e.line, e.error);
      markPart(current, 1, e.part);
      continue;
    }
    if (!current || (current.session.sid !== e.record.sid && current.session.sid !== "(unknown)")) {
      if (current) out.push(current.finish());
      current = new SessionBuilder(e.record.sid, e.record);
    } else if (current.session.sid === "(unknown)") {
      // Bad lines before the first record belong to the session that follows.
      const fresh = new SessionBuilder(e.record.sid, e.record);
      for (const item of current.session.items) {
        fresh.invalid(item.line, item.detail ?? "");
        markPart(fresh, 1, item.part);
      }
      current = fresh;
    }
    const before = current.session.items.length;
    current.add(e.line, e.record);
    markPart(current, current.session.items.length - before, e.part);
  }
  if (current) out.push(current.finish());
  return out;
}

/** Label the last `n` items with the part their line is in (nothing for a first part). */
function markPart(b: SessionBuilder, n: number, part: number | undefined): void {
  if (part === undefined) return;
  const items = b.session.items;
  for (let i = items.length - n; i < items.length; i++) (items[i] as ReplayItem).part = part;
}
