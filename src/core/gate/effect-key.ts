/**
 * What a user approves when they say yes: the exact canonical effect of one call. A grant made
 * out of band (`effectgate allow ID`) is bound to the hash of this, so approving one write never
 * approves another (docs/decisions/0104-grants-bound-to-the-effect.md).
 *
 * The effect is the server, the method, the tool, and the set of every effect the judge found
 * (each reading of each path, each command), never the wording or the content: a retry whose
 * arguments name the same paths is the same effect, one that names another path is not.
 */
import { canonicalHash } from "../json/jcs.js";
import type { Effect } from "../types.js";

/** One thing a call would do, as a user reads it: `write /home/u/proj/package.json`. */
export interface EffectEntry {
  verb: string;
  target: string;
}

export interface AskSubject {
  /** The server's identity: its `--name`, else its command line (as pins name it). */
  server: string;
  method: string;
  /** The tool, prompt name or resource URI. */
  tool: string;
  effects: readonly Effect[];
}

/** Verbs by operation and kind; a pair not listed reads `<operation>-<kind>`. */
const VERBS: Readonly<Record<string, string>> = {
  "read path": "read",
  "write path": "write",
  "exec path": "run-file",
  "exec command": "run",
  "read url": "fetch",
};

/** Every effect once, in a fixed order (verb, then target), whatever order the judge found them in. */
export function effectEntries(effects: readonly Effect[]): EffectEntry[] {
  return sortedEntries(
    effects.map((e) => ({
      verb: VERBS[`${e.operation} ${e.kind}`] ?? `${e.operation}-${e.kind}`,
      target: e.canonical ?? e.spelled,
    })),
  );
}

/** Readable entries once each, in the fixed order effectEntries gives. */
function sortedEntries(entries: readonly EffectEntry[]): EffectEntry[] {
  const seen = new Map<string, EffectEntry>();
  for (const e of entries) seen.set(JSON.stringify([e.verb, e.target]), { verb: e.verb, target: e.target });
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** The hash a grant is bound to: hex SHA-256 of the canonical JSON (RFC 8785) of the subject. */
export function effectKey(s: AskSubject): string {
  return entriesKey({ ...s, entries: effectEntries(s.effects) });
}

/**
 * The same hash from the readable entries a grant file keeps (project-grants.ts), so that the
 * key of an entry can be checked against the words a reviewer reads.
 */
export function entriesKey(s: Omit<AskSubject, "effects"> & { entries: readonly EffectEntry[] }): string {
  return canonicalHash({
    v: 1,
    server: s.server,
    method: s.method,
    tool: s.tool,
    effects: sortedEntries(s.entries).map((e) => [e.verb, e.target]),
  });
}
