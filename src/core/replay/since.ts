// `--since WHEN`: a moment, as a span back from now (`7d`, `12h`, `30m`, `2w`) or an ISO 8601
// date or date-time (`2026-11-02`, `2026-11-02T09:00`, `…Z`, `…+01:00`). Logs keep UTC, so a
// date or a time without a zone is UTC too: the same words mean the same moment on every machine.
import { UsageError } from "../errors.js";

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const SPAN = /^(\d{1,6})([mhdw])$/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

const SINCE_EXPECTED =
  "a span back from now (30m, 12h, 7d, 2w) or an ISO date or date-time in UTC (2026-11-02, 2026-11-02T09:00)";

/** Milliseconds since the epoch; `now` is passed in (core reads no clock). */
export function parseSince(text: string, now: number): number {
  const span = SPAN.exec(text);
  if (span) return now - Number(span[1]) * (UNIT_MS[span[2] as string] as number);
  const date = DATE.exec(text);
  if (date) {
    const iso = text.length === 10 ? `${text}T00:00:00Z` : date[1] === undefined ? `${text}Z` : text;
    const ms = Date.parse(iso);
    // Date.parse rolls 2026-02-31 over to March; a date that does not exist is a mistake.
    if (Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === sameDay(iso, ms)) return ms;
  }
  throw new UsageError(`expected ${SINCE_EXPECTED}, got ${JSON.stringify(text)}`);
}

/** The calendar day the text names, as toISOString would write it for that moment in UTC. */
function sameDay(iso: string, ms: number): string {
  // With an offset the UTC day may differ from the written one: compare the moment with itself.
  return /[+-]\d{2}:\d{2}$/.test(iso) ? new Date(ms).toISOString().slice(0, 10) : iso.slice(0, 10);
}
