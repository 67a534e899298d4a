import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const ROOT = join(import.meta.dirname, "..", "..");
export const CLI = join(ROOT, "dist", "main.js");
export const RECORDING_SERVER = join(ROOT, "tests", "fixtures", "e2e", "recording-server.mjs");
/** The real reference filesystem server, a devDependency. */
export const FILESYSTEM_SERVER = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);

/** A fresh HOME and EFFECTGATE_HOME, so no test reads or writes the real user's files. */
export function sandbox(): { home: string; env: NodeJS.ProcessEnv; record: string } {
  const home = mkdtempSync(join(tmpdir(), "effectgate-e2e-"));
  const record = join(home, "received.jsonl");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    EFFECTGATE_HOME: join(home, ".effectgate"),
    RECORD_FILE: record,
  };
  delete env.EFFECTGATE_OFF;
  return { home, env, record };
}

/** What the recording server received: one parsed message per line. */
export function received(
  record: string,
): Array<{ method?: string; id?: unknown; params?: { name?: string } }> {
  if (!existsSync(record)) return [];
  return readFileSync(record, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method?: string; id?: unknown; params?: { name?: string } });
}

/** A raw newline-framed client around the built CLI. */
export class RawClient {
  readonly child: ChildProcess;
  stderr = "";
  private lines: string[] = [];
  private waiting: Array<(line: string) => void> = [];
  private pending = "";

  constructor(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
    this.child = spawn(process.execPath, [CLI, ...args], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
      ...(cwd === undefined ? {} : { cwd }),
    });
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (d: string) => {
      this.pending += d;
      let nl;
      while ((nl = this.pending.indexOf("\n")) !== -1) {
        const line = this.pending.slice(0, nl);
        this.pending = this.pending.slice(nl + 1);
        const w = this.waiting.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (d: string) => (this.stderr += d));
  }

  send(msg: unknown): void {
    this.child.stdin!.write(JSON.stringify(msg) + "\n");
  }

  next(): Promise<Record<string, unknown>> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line) as Record<string, unknown>);
    return new Promise((resolve) =>
      this.waiting.push((l) => resolve(JSON.parse(l) as Record<string, unknown>)),
    );
  }

  async request(msg: { id: unknown } & Record<string, unknown>): Promise<Record<string, unknown>> {
    this.send({ jsonrpc: "2.0", ...msg });
    return this.next();
  }

  async initialize(): Promise<void> {
    await this.request({
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
    });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  call(id: unknown, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.request({ id, method: "tools/call", params: { name, arguments: args } });
  }

  close(): Promise<number | null> {
    return new Promise((resolve) => {
      this.child.on("exit", (code) => resolve(code));
      this.child.stdin!.end();
    });
  }
}

/**
 * The official SDK client, connected through the built CLI with `args` (effectgate's options,
 * `--`, the server). Its stderr is dropped; close the client to end the session.
 */
export async function sdkClient(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd?: string; name?: string },
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
    env: opts.env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: opts.name ?? "effectgate-e2e", version: "1" });
  await client.connect(transport);
  return client;
}
