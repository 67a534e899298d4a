// Drives the BUILT CLI (node dist/main.js) as a live client would: write lines, wait for lines.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { LineSplitter } from "../../src/core/framing/line-splitter.js";
import { isAlive } from "./helpers.js";

export const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");

export interface CliSession {
  pid: number;
  send(line: string): void;
  /** The first line from effectgate's stdout not yet taken that `match` accepts. */
  next(match?: (msg: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Every line received so far, parsed. */
  lines: Array<Record<string, unknown>>;
  end(): void;
  done: Promise<{ code: number | null; signal: string | null; stderr: string }>;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv): CliSession {
  const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  const lines: Array<Record<string, unknown>> = [];
  let waiters: Array<() => void> = [];
  const splitter = new LineSplitter();
  child.stdout.on("data", (chunk: Buffer) =>
    splitter.push(chunk, (f) => {
      lines.push(JSON.parse(f.bytes.toString("utf8")) as Record<string, unknown>);
      const w = waiters;
      waiters = [];
      for (const wake of w) wake();
    }),
  );
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  const taken = new Set<number>();
  return {
    pid: child.pid ?? 0,
    send: (line) => child.stdin.write(line.endsWith("\n") ? line : `${line}\n`),
    lines,
    end: () => child.stdin.end(),
    done,
    async next(match = () => true) {
      for (;;) {
        const i = lines.findIndex((msg, n) => !taken.has(n) && match(msg));
        if (i >= 0) {
          taken.add(i);
          return lines[i] as Record<string, unknown>;
        }
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

/** Waits until `file` exists and holds a pid. */
export async function pidFrom(file: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    if (existsSync(file)) {
      const pid = Number(readFileSync(file, "utf8"));
      if (pid > 0) return pid;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no pid in ${file}`);
}

/**
 * Whether `pid` still runs. A zombie (dead, not yet reaped: an init that does not reap, as in
 * some containers) is not running, though process.kill(pid, 0) still finds it.
 */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc (macOS): trust kill(pid, 0)
  }
}

/** Whether `pid` is gone within a second: a signalled process takes a moment to leave the table. */
export async function stopped(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 25));
  return !isRunning(pid);
}

/** A list of pids that get SIGKILL after each test, so a failing test leaves no process behind. */
export function killedAfterEach(): number[] {
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0))
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
  });
  return pids;
}
