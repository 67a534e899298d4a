import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const MAIN = join(ROOT, "dist", "main.js");
export const FIXTURES = join(ROOT, "tests", "fixtures", "pins");
export const fixture = (name: string): string => join(FIXTURES, name);

/** A fresh folder holding HOME, EFFECTGATE_HOME, the working directory and fixture state. */
export function sandbox(): { dir: string; home: string; state: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), "eg-pins-"));
  const home = join(dir, "home");
  const state = join(dir, "state");
  mkdirSync(home);
  mkdirSync(state);
  return {
    dir,
    home,
    state,
    env: { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") },
  };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/main.js …` in the sandbox's folder. */
export function cli(box: { dir: string; env: NodeJS.ProcessEnv }, args: string[], input?: string): Ran {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: box.dir,
    env: box.env,
    encoding: "utf8",
    input,
    timeout: 50_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON, read loosely in assertions
export type Msg = Record<string, any>;

/** Runs the relay, sends `messages` one by one, waiting for the answer to each request. */
export async function session(
  box: ReturnType<typeof sandbox>,
  args: string[],
  messages: Msg[],
): Promise<{ answers: Map<number, Msg>; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: box.dir,
    env: box.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const answers = new Map<number, Msg>();
  let stderr = "";
  let buf = "";
  const waiters = new Map<number, () => void>();
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  child.stdout.on("data", (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let m: Msg;
      try {
        m = JSON.parse(line) as Msg;
      } catch {
        continue;
      }
      if (typeof m.id === "number" && m.method === undefined) {
        answers.set(m.id, m);
        waiters.get(m.id)?.();
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  for (const m of messages) {
    if (child.exitCode !== null) break;
    child.stdin.write(`${JSON.stringify(m)}\n`);
    if (m.id !== undefined) {
      await Promise.race([
        new Promise<void>((r) => waiters.set(m.id as number, r)),
        exited,
        new Promise((r) => setTimeout(r, 15_000)),
      ]);
    }
  }
  child.stdin.end();
  const code = await exited;
  return { answers, stderr, code };
}

/** initialize, initialized and a first tools/list (id 2). */
export const handshake = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
];
export const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: { path: "/tmp/x" } },
});
