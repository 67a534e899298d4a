import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A raw client around the BUILT CLI for the adversarial and fault suites: it writes exact bytes,
// waits for answers by id (with a deadline, so a lost answer fails a test instead of hanging it),
// and reads back what the lenient fixture server recorded.

export const ROOT = join(import.meta.dirname, "..", "..");
export const CLI = join(ROOT, "dist", "main.js");
export const LENIENT_SERVER = join(ROOT, "tests", "fixtures", "adversarial", "lenient-server.mjs");
export const FAULT_SERVER = join(ROOT, "tests", "fixtures", "adversarial", "fault-server.mjs");

export interface Box {
  home: string;
  project: string;
  record: string;
  pidFile: string;
  logDir: string;
  env: NodeJS.ProcessEnv;
}

/** Fresh HOME, EFFECTGATE_HOME, project folder, record and pid files. */
export function box(extra: NodeJS.ProcessEnv = {}): Box {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "effectgate-adv-")));
  const project = join(home, "project");
  mkdirSync(project);
  const record = join(home, "received.jsonl");
  const pidFile = join(home, "server.pid");
  const logDir = join(home, "logs");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    EFFECTGATE_HOME: join(home, ".effectgate"),
    RECORD_FILE: record,
    PID_FILE: pidFile,
  };
  delete env.EFFECTGATE_OFF; // only the control group turns the checks off, through `extra`
  Object.assign(env, extra);
  return { home, project, record, pidFile, logDir, env };
}

export type Msg = Record<string, unknown>;

/** The exact handshake lines the client sends; anything else the server receives is "work". */
export const HANDSHAKE = [
  JSON.stringify({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "adversary", version: "1" },
    },
  }),
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
];

export class GateClient {
  readonly child: ChildProcess;
  stderr = "";
  readonly messages: unknown[] = [];
  private pending = "";
  private readonly waiters: Array<() => void> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
    this.child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    this.child.stdin!.on("error", () => undefined); // writing after the relay died is part of some tests
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (d: string) => {
      this.pending += d;
      let nl;
      while ((nl = this.pending.indexOf("\n")) !== -1) {
        const line = this.pending.slice(0, nl);
        this.pending = this.pending.slice(nl + 1);
        try {
          this.messages.push(JSON.parse(line) as unknown);
        } catch {
          this.messages.push({ unparsed: line });
        }
        for (const w of this.waiters.splice(0)) w();
      }
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (d: string) => (this.stderr += d));
  }

  write(bytes: string | Buffer): void {
    this.child.stdin!.write(bytes);
  }

  send(msg: unknown): void {
    this.write(JSON.stringify(msg) + "\n");
  }

  /** Every message answering `id` (batch answers are flattened). */
  answers(id: unknown): Msg[] {
    const flat = this.messages.flatMap((m) => (Array.isArray(m) ? (m as unknown[]) : [m])) as Msg[];
    return flat.filter(
      (m) =>
        m !== null &&
        typeof m === "object" &&
        !("method" in m) &&
        JSON.stringify(m.id) === JSON.stringify(id),
    );
  }

  /** Waits for the answer to `id`; rejects after `ms` so a swallowed call fails loudly. */
  async answer(id: unknown, ms = 10_000): Promise<Msg> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.answers(id)[0];
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no answer for id ${JSON.stringify(id)} within ${ms} ms; stderr: ${this.stderr.slice(-500)}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The handshake; `capabilities` (e.g. `{ elicitation: {} }`, so strict can ask) replace none. */
  async initialize(capabilities?: Msg): Promise<void> {
    if (capabilities === undefined) this.write(HANDSHAKE[0] + "\n");
    else {
      const init = JSON.parse(HANDSHAKE[0] as string) as { params: Msg };
      this.send({ ...init, params: { ...init.params, capabilities } });
    }
    await this.answer("init");
    this.write(HANDSHAKE[1] + "\n");
  }

  call(id: unknown, name: string, args: unknown): void {
    this.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  }

  /** Closes stdin and waits for the relay to exit. */
  async close(): Promise<number | null> {
    this.child.stdin!.end();
    return (await this.exited).code;
  }
}

/** Raw lines the fixture server received, in order (as text). */
export function receivedLines(record: string): string[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
}

/** Lines beyond the handshake: what the server was asked to do. */
export function receivedWork(record: string): string[] {
  return receivedLines(record).filter((l) => !HANDSHAKE.includes(l));
}

export function isRefusal(m: Msg): boolean {
  const r = m.result as
    | { isError?: unknown; content?: Array<{ text?: unknown }>; contents?: Array<{ text?: unknown }> }
    | undefined;
  const text = r?.content?.[0]?.text ?? r?.contents?.[0]?.text;
  return r?.isError === true && typeof text === "string" && text.includes("effectgate refused");
}

/** True when `pid` no longer names a live process. */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

export function readPid(file: string): number {
  return Number(readFileSync(file, "utf8"));
}
