// Drives the relay in-process: PassThrough streams for the client, real fixture servers.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { Gate } from "../../src/core/gate/gate.js";
import { LineSplitter } from "../../src/core/framing/line-splitter.js";
import { runRelay, type RelayLog, type RelayResult } from "../../src/relay/session/relay.js";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "servers");
export const fixture = (name: string): string => join(FIXTURES, name);

export function tempDir(prefix = "eg-relay-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A fresh HOME and EFFECTGATE_HOME for anything that reads them. */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = tempDir("eg-home-");
  return { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate"), ...extra };
}

export interface LoggedRecord {
  kind: "frame" | "stderr" | "event" | "exit";
  dir?: "c2s" | "s2c";
  text?: string;
  eol?: string;
  nonJson?: boolean;
  /** Set for a frame logged only by head and hash. */
  sha256?: string;
  ev?: string;
  data?: Record<string, unknown>;
}

export class MemoryLog implements RelayLog {
  readonly records: LoggedRecord[] = [];
  frame(dir: "c2s" | "s2c", bytes: Buffer, eol: "\n" | "\r\n" | "", nonJson: boolean): void {
    this.records.push({ kind: "frame", dir, text: bytes.toString("utf8"), eol, nonJson });
  }
  bigFrame(
    dir: "c2s" | "s2c",
    f: { size: number; eol: "\n" | "\r\n" | ""; head: Buffer; sha256: string },
    nonJson: boolean,
  ): void {
    this.records.push({
      kind: "frame",
      dir,
      text: f.head.toString("utf8"),
      eol: f.eol,
      nonJson,
      sha256: f.sha256,
    });
  }
  stderr(text: string): void {
    this.records.push({ kind: "stderr", text });
  }
  event(ev: string, data: Record<string, unknown>): void {
    this.records.push({ kind: "event", ev, data });
  }
  exit(e: {
    code: number | null;
    signal: string | null;
    exitCode: number;
    counts: Record<string, number>;
  }): void {
    this.records.push({ kind: "exit", data: e });
  }
  events(ev: string): Record<string, unknown>[] {
    return this.records.filter((r) => r.kind === "event" && r.ev === ev).map((r) => r.data ?? {});
  }
}

export interface Harness {
  send(line: string): void;
  /** The next frame the client receives (without terminator). */
  next(): Promise<string>;
  /** Frames already received and not yet taken. */
  received: string[];
  end(): void;
  result: Promise<RelayResult>;
  pid: Promise<number>;
  stderr(): string;
  log: MemoryLog;
  input: PassThrough;
  output: PassThrough;
}

export function startRelay(
  serverArgv: string[],
  opts: { gate?: Gate; env?: NodeJS.ProcessEnv; envDeny?: string[]; maxFrameBytes?: number } = {},
): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const errorOutput = new PassThrough();
  const log = new MemoryLog();
  const received: string[] = [];
  const waiters: Array<(s: string) => void> = [];
  const splitter = new LineSplitter();
  const take = (f: { bytes: Buffer }): void => {
    const text = f.bytes.toString("utf8");
    const w = waiters.shift();
    if (w) w(text);
    else received.push(text);
  };
  output.on("data", (chunk: Buffer) => splitter.push(chunk, take));
  output.on("end", () => splitter.end(take));
  let err = "";
  errorOutput.on("data", (c: Buffer) => (err += c.toString("utf8")));
  let setPid: (pid: number) => void = () => undefined;
  const pid = new Promise<number>((r) => (setPid = r));
  // Streams hand data on asynchronously: give them a turn before a test reads what arrived.
  const result = runRelay({
    serverArgv,
    input,
    output,
    errorOutput,
    gate: opts.gate,
    log,
    env: opts.env ?? testEnv(),
    ...(opts.envDeny ? { envDeny: opts.envDeny } : {}),
    ...(opts.maxFrameBytes ? { maxFrameBytes: opts.maxFrameBytes } : {}),
    cwd: process.cwd(),
    onSpawn: setPid,
  }).then(async (r) => {
    await new Promise((resolve) => setImmediate(resolve));
    return r;
  });
  return {
    send: (line) => input.write(line),
    next: () => {
      const got = received.shift();
      if (got !== undefined) return Promise.resolve(got);
      return new Promise((r) => waiters.push(r));
    },
    received,
    end: () => input.end(),
    result,
    pid,
    stderr: () => err,
    log,
    input,
    output,
  };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
