/**
 * The official SDK client over stdio, spawning the built `effectgate --url …`: what a coding
 * agent's client does with a wrapped remote server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "../../e2e/harness.js";

export interface Bridged {
  client: Client;
  home: string;
  env: NodeJS.ProcessEnv;
  stderr(): string;
  close(): Promise<void>;
}

/** A fresh HOME and EFFECTGATE_HOME for one test. */
export function remoteSandbox(): { home: string; env: NodeJS.ProcessEnv; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), "effectgate-remote-"));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") };
  delete env["EFFECTGATE_OFF"];
  return { home, env, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export async function bridged(
  url: string,
  opts: {
    args?: string[];
    env?: NodeJS.ProcessEnv;
    home?: string;
    capabilities?: Record<string, unknown>;
  } = {},
): Promise<Bridged> {
  const box =
    opts.env && opts.home ? { home: opts.home, env: opts.env, cleanup: () => undefined } : remoteSandbox();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...(opts.args ?? []), "--url", url],
    env: box.env as Record<string, string>,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString("utf8")));
  const client = new Client(
    { name: "bridge-test", version: "1.0.0" },
    { capabilities: opts.capabilities ?? {} },
  );
  await client.connect(transport);
  return {
    client,
    home: box.home,
    env: box.env,
    stderr: () => err,
    close: async () => {
      await client.close();
      box.cleanup();
    },
  };
}

/** The SDK 2.x client pinned to 2026-07-28 over stdio, spawning the built `effectgate --url …`. */
export async function bridgedModern(
  url: string,
  opts: { args?: string[]; env?: NodeJS.ProcessEnv; home?: string } = {},
): Promise<{
  client: import("@modelcontextprotocol/client").Client;
  home: string;
  env: NodeJS.ProcessEnv;
  stderr(): string;
  close(): Promise<void>;
}> {
  const { Client: ModernClient } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport: ModernStdio } = await import("@modelcontextprotocol/client/stdio");
  const box =
    opts.env && opts.home ? { home: opts.home, env: opts.env, cleanup: () => undefined } : remoteSandbox();
  const transport = new ModernStdio({
    command: process.execPath,
    args: [CLI, ...(opts.args ?? []), "--url", url],
    env: box.env as Record<string, string>,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString("utf8")));
  const client = new ModernClient(
    { name: "bridge-test-modern", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(transport);
  return {
    client,
    home: box.home,
    env: box.env,
    stderr: () => err,
    close: async () => {
      await client.close();
      box.cleanup();
    },
  };
}
