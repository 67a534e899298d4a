import type { Effect } from "../types.js";

/**
 * Characters of one text of an effect that a `decision` record keeps. A path or command longer
 * than this is no path the system opens (PATH_MAX is 4096) and no command a person reads; the
 * frame record beside it holds the call whole. Without a bound, a 4 MiB string an unknown tool
 * sends (read as a possible path, twice: read and write) made an 8 MiB record per call.
 */
export const LOGGED_EFFECT_CHARS = 16 * 1024;

const CUT_FIELDS = ["at", "spelled", "canonical"] as const;

/**
 * An effect as the log records it: `at`, `spelled` and `canonical` cut to their first
 * LOGGED_EFFECT_CHARS characters, and, when any was cut, `cut` giving each one's full length.
 * What was judged is unchanged; only the record is shorter.
 */
export function loggedEffect(e: Effect): Effect & { cut?: Record<string, number> } {
  let cut: Record<string, number> | undefined;
  let out: Effect = e;
  for (const field of CUT_FIELDS) {
    const text = e[field];
    if (text === undefined || text.length <= LOGGED_EFFECT_CHARS) continue;
    if (cut === undefined) {
      cut = {};
      out = { ...e };
    }
    cut[field] = text.length;
    out[field] = text.slice(0, LOGGED_EFFECT_CHARS);
  }
  return cut === undefined ? out : { ...out, cut };
}
