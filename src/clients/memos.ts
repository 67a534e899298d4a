// Install memos (decision 0044): the few facts about an original declaration that its wrapped
// text cannot carry. The declaration had an explicit empty args list written exactly where
// install would have added one, so uninstall cannot tell "added" from "was there"; or it was a
// remote server that install --remote turned into a stdio one (decision 0101), whose original
// text only the memo holds (and with it its header values, which the wrapped text keeps too).
// Kept owner-only in $EFFECTGATE_HOME/install-memos.json, keyed by the config's real path and the
// declaration's location, and matched on a hash of the wrapped argv: a memo applies only while
// the declaration is still exactly what install wrote. For stdio servers no env values or args
// are stored.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { canonicalJson } from "../core/json/jcs.js";
import { parseStrictJson } from "../core/json/strict-json.js";
import { effectgateHome } from "../platform/home.js";
import { replacePrivateFile } from "../platform/secure-file.js";
import type { PlanMemo } from "./plan.js";

const place = {
  config: z.string(),
  at: z.array(z.union([z.string(), z.number()])),
  argvHash: z.string().regex(/^[0-9a-f]{64}$/),
};
const memoSchema = z.union([
  z.strictObject({ ...place, emptyArgs: z.literal(true) }),
  // A remote server install --remote wrapped: its declaration's text before (decision 0101).
  z.strictObject({
    ...place,
    remote: z.strictObject({ original: z.string(), wroteHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  }),
]);
const fileSchema = z.strictObject({ version: z.literal(1), memos: z.array(memoSchema) });

export type Memo = z.infer<typeof memoSchema>;

export function memosPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(effectgateHome(env), "install-memos.json");
}

/** Memos on disk; a missing or unreadable file is none (the cost: `"args": []` comes back absent). */
export function loadMemos(path: string): Memo[] {
  if (!existsSync(path)) return [];
  const parsed = parseStrictJson(readFileSync(path, "utf8"));
  if (!parsed.ok) return [];
  const r = fileSchema.safeParse(parsed.value);
  return r.success ? r.data.memos : [];
}

const key = (m: { config: string; at: readonly (string | number)[] }) => JSON.stringify([m.config, m.at]);

/** The memos of one config file, as the planner takes them. */
export function memosFor(memos: readonly Memo[], config: string): PlanMemo[] {
  return memos
    .filter((m) => m.config === config)
    .map((m) => ({ at: m.at, argvHash: m.argvHash, ...("remote" in m ? { remote: m.remote } : {}) }));
}

/** The memo to keep for a plan's memo, once its file is written. */
export function memoFor(config: string, m: PlanMemo): Memo {
  return m.remote
    ? { config, at: m.at, argvHash: m.argvHash, remote: m.remote }
    : { config, at: m.at, argvHash: m.argvHash, emptyArgs: true };
}

/** Adds (replacing same config + location) and drops memos, then writes the file atomically. */
export function updateMemos(path: string, add: readonly Memo[], drop: readonly Memo[]): void {
  if (add.length === 0 && drop.length === 0) return;
  const gone = new Set([...add, ...drop].map(key));
  const memos = [...loadMemos(path).filter((m) => !gone.has(key(m))), ...add];
  replacePrivateFile(path, canonicalJson({ version: 1, memos }) + "\n");
}
