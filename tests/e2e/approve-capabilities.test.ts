// approve sees the tools a server offers only to clients with some capabilities (the reference
// `everything` server shows get-roots-list only to a client with roots), so a session of such a
// client at enforce with the lock can call them; and the first approve is a list to read, not a
// wall of [high] findings.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLI, ROOT, sandbox } from "./harness.js";

const EVERYTHING = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);
const SERVER = [process.execPath, EVERYTHING];
/** Offered only to clients that declare roots, sampling or elicitation. */
const CONDITIONAL = ["get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"];

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function box(): ReturnType<typeof sandbox> {
  const b = sandbox();
  homes.push(b.home);
  return b;
}

function approve(b: ReturnType<typeof sandbox>, args: string[]) {
  return spawnSync(process.execPath, [CLI, "approve", ...args, "--name", "everything", "--", ...SERVER], {
    cwd: b.home,
    env: b.env,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("approve and the tools a server offers only to capable clients", () => {
  it("pins them, so a client with roots can call get-roots-list at enforce with the lock", async () => {
    const b = box();
    const first = approve(b, []);
    expect(first.status, first.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(b.home, "effectgate.lock"), "utf8")) as {
      servers: Record<string, { tools: Record<string, unknown> }>;
    };
    const pinned = Object.keys(lock.servers.everything!.tools);
    for (const name of CONDITIONAL) expect(pinned).toContain(name);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--level", "enforce", "--lock", "effectgate.lock", "--name", "everything", "--", ...SERVER],
      cwd: b.home,
      env: b.env as Record<string, string>,
      stderr: "ignore",
    });
    const client = new Client({ name: "roots-client", version: "1" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: `file://${b.home}`, name: "home" }],
    }));
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get-roots-list");
      const result = await client.callTool({ name: "get-roots-list", arguments: {} });
      const text = JSON.stringify(result.content);
      expect(result.isError ?? false, text).toBe(false);
      expect(text).not.toContain("effectgate refused");
      expect(text).toContain(b.home); // the server itself answered, with the client's roots
    } finally {
      await client.close();
    }

    const diff = approve(b, ["--diff"]);
    expect(diff.stdout).toMatch(/unchanged \(\d+ tools\)/);
    expect(diff.status).toBe(0);
  });

  it("lists a first approval's tools with their descriptions, with no severities", () => {
    const b = box();
    const noEntry = approve(b, ["--diff"]);
    expect(noEntry.status).toBe(1);
    const first = approve(b, []);
    expect(first.status, first.stderr).toBe(0);
    for (const out of [noEntry.stdout, first.stdout]) {
      expect(out).not.toMatch(/\[(high|medium|low)\]/);
      expect(out).toContain('  tool "echo": "Echoes back the input string"');
      expect(out).toContain('  tool "get-roots-list": "Lists the current MCP roots provided by the client.');
    }
    expect(first.stdout).toMatch(
      /new entry servers\["everything"\]; its tools, as the model will read them:/,
    );
  });
});
