import { expect } from "vitest";
import {
  box,
  type Box,
  GateClient,
  isRefusal,
  LENIENT_SERVER,
  type Msg,
  receivedWork,
} from "./gate-client.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

// One attack, one relay session at --level enforce around the lenient fixture server. After the
// attack a harmless "canary" write is sent: its answer proves the attack frame was processed (the
// relay keeps order) and that the session still works, and its line must be the ONLY work the
// server ever received. A breach is judged by the server's record and the disk, not the transcript.

export interface Attack {
  /** Short name of the case. */
  name: string;
  /** What it tries (one line). */
  tries: string;
  /** Prepare the sandbox (create links, secrets…); optional. */
  setup?: (b: Box) => void;
  /** The bytes of the attack, newline included. */
  frame: (b: Box) => string | Buffer;
  /** The id the relay must answer with a refusal; undefined when the frame has no usable id. */
  answerId?: unknown;
  /** Files that must not exist after the session. */
  untouched?: (b: Box) => string[];
  /** Files that exist after setup and must keep their exact bytes. */
  unchanged?: (b: Box) => string[];
  /** Run the relay with this working directory (the server inherits it). */
  cwd?: (b: Box) => string;
  /** Extra relay options placed before `--`. */
  options?: (b: Box) => string[];
  /** A fixture server script to run instead of the lenient one (which it may wrap). */
  server?: string;
  /** Extra environment for the fixture server (e.g. FIRST_WINS=1). */
  env?: NodeJS.ProcessEnv;
  /** Text that must not appear in any answer (a secret the server could have returned). */
  secret?: string;
}

export const tc = (id: unknown, name: string, args: unknown): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }) + "\n";

export async function runAttack(a: Attack, b: Box = box()): Promise<{ b: Box; c: GateClient; answer?: Msg }> {
  a.setup?.(b);
  const args = [
    "--level",
    "enforce",
    "--log-dir",
    b.logDir,
    ...(a.options?.(b) ?? []),
    "--",
    process.execPath,
    a.server ?? LENIENT_SERVER,
  ];
  const c = new GateClient(args, b.env, a.cwd?.(b));
  let answer: Msg | undefined;
  try {
    await c.initialize();
    c.write(a.frame(b));
    const canary = join(b.project, "canary.txt");
    c.call("canary", "write_file", { path: canary, content: "alive" });
    if (a.answerId !== undefined) answer = await c.answer(a.answerId);
    await c.answer("canary");
  } finally {
    await c.close();
  }
  return { b, c, ...(answer ? { answer } : {}) };
}

/** The verdict every attack in the suite must get at enforce. */
export async function expectBlocked(a: Attack): Promise<void> {
  const before = new Map<string, Buffer>();
  const b0 = box(a.env);
  const { b, c, answer } = await runAttack(
    {
      ...a,
      setup: (bx) => {
        a.setup?.(bx);
        for (const f of a.unchanged?.(bx) ?? []) before.set(f, readFileSync(f));
      },
    },
    b0,
  );
  for (const [f, bytes] of before)
    expect(readFileSync(f).equals(bytes), `${a.name}: ${f} was changed`).toBe(true);
  const work = receivedWork(b.record);
  // Only the canary reached the server; and it really did (so the record would show a breach).
  expect(work, `${a.name}: the server received more than the canary`).toHaveLength(1);
  expect(work[0]).toContain("canary");
  expect(existsSync(join(b.project, "canary.txt"))).toBe(true);
  for (const f of a.untouched?.(b) ?? []) expect(existsSync(f), `${a.name}: ${f} was written`).toBe(false);
  if (a.answerId !== undefined)
    expect(isRefusal(answer as Msg), `${a.name}: answer ${JSON.stringify(answer)}`).toBe(true);
  if (a.secret !== undefined) expect(JSON.stringify(c.messages)).not.toContain(a.secret);
}
