// Unwrap memos (decision 0087): which servers `effectgate uninstall` gave their own command back.
// A baseline recorded before still says they are wrapped, and verify and watch would call each
// one "LOST its effectgate wrapper" although the user unwrapped it on purpose. A memo names the
// config (as verify finds it), the server's name and a hash of the exact command line uninstall
// wrote; it applies only while the server still starts with exactly that. install drops it.
// Kept owner-only in $EFFECTGATE_HOME/unwrapped.json; no env values or args are stored.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { canonicalHash, canonicalJson } from "../core/json/jcs.js";
import { parseStrictJson } from "../core/json/strict-json.js";
import { effectgateHome } from "../platform/home.js";
import { replacePrivateFile } from "../platform/secure-file.js";

const memoSchema = z.strictObject({
  config: z.string(),
  server: z.string(),
  argvHash: z.string().regex(/^[0-9a-f]{64}$/),
});
const fileSchema = z.strictObject({ version: z.literal(1), unwrapped: z.array(memoSchema) });

export type UnwrapMemo = z.infer<typeof memoSchema>;

export function unwrapMemosPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(effectgateHome(env), "unwrapped.json");
}

/** The memo for a server uninstall restored to `argv` in `config`. */
export function unwrapMemo(config: string, server: string, argv: readonly string[]): UnwrapMemo {
  return { config, server, argvHash: canonicalHash([...argv]) };
}

/** Memos on disk; a missing or unreadable file is none (verify then says LOST, loudly, as before). */
export function loadUnwrapMemos(path: string): UnwrapMemo[] {
  if (!existsSync(path)) return [];
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return [];
  const r = fileSchema.safeParse(parsed.value);
  return r.success ? r.data.unwrapped : [];
}

/** Whether `argv` is what uninstall restored for this server of this config. */
export function unwrappedOnPurpose(
  memos: readonly UnwrapMemo[],
): (config: string, server: string, argv: readonly string[]) => boolean {
  return (config, server, argv) => {
    const hash = canonicalHash([...argv]);
    return memos.some((m) => m.config === config && m.server === server && m.argvHash === hash);
  };
}

const key = (m: { config: string; server: string }) => JSON.stringify([m.config, m.server]);

/**
 * Adds memos (replacing one for the same config and server) and drops those for servers install
 * wrapped again (`wrappedAgain`, matched by config and server), then writes the file atomically.
 */
export function updateUnwrapMemos(
  path: string,
  add: readonly UnwrapMemo[],
  wrappedAgain: readonly { config: string; server: string }[],
): void {
  if (add.length === 0 && wrappedAgain.length === 0) return;
  const before = loadUnwrapMemos(path);
  const gone = new Set([...add, ...wrappedAgain].map(key));
  const memos = [...before.filter((m) => !gone.has(key(m))), ...add];
  if (memos.length === before.length && add.length === 0) return; // nothing to drop either
  replacePrivateFile(path, canonicalJson({ version: 1, unwrapped: memos }) + "\n");
}
