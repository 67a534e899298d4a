// A relay that cannot start tells the client why, on the request the client waits on, instead of
// a bare "Connection closed"; then it exits with the failure's own code.
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, RECORDING_SERVER, received, sandbox } from "./harness.js";

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function box(): ReturnType<typeof sandbox> {
  const b = sandbox();
  homes.push(b.home);
  return b;
}

/** The official SDK client's connect through effectgate: the error it throws, if any. */
async function connectError(args: string[], env: NodeJS.ProcessEnv): Promise<Error | undefined> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    env: env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: "startup-test", version: "1" });
  try {
    await client.connect(transport);
    await client.close();
    return undefined;
  } catch (err) {
    await client.close().catch(() => undefined);
    return err as Error;
  }
}

/** Spawns the relay, sends `initialize`, and returns the answer, the exit code and stderr. */
function rawStart(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ answer: Record<string, unknown>; code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("close", (code) =>
      resolve({ answer: JSON.parse(out.split("\n")[0] ?? "null") as Record<string, unknown>, code, stderr }),
    );
    // Like a real client: the request goes out at once and stdin stays open while it waits.
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }) + "\n",
    );
  });
}

describe("start-up failures reach the client", () => {
  it("a policy that does not load: the SDK client's error names the file:line and the key; exit 78", async () => {
    const b = box();
    const policy = join(b.home, "policy.yaml");
    writeFileSync(policy, "version: 1\nmode: observe\nbogus: true\n");
    const args = ["--policy", policy, "--", process.execPath, RECORDING_SERVER];
    const err = await connectError(args, b.env);
    expect(err?.message).toContain(`${policy}:3: bogus: expected`);
    expect(err?.message).toContain("effectgate cannot start (exit 78, configuration error)");

    const raw = await rawStart(args, b.env);
    expect(raw.code).toBe(78);
    expect(raw.answer).toMatchObject({ id: 0, error: { code: -32603 } });
    // The client's log mixes every server's stderr: each of our lines says whose it is.
    const lines = raw.stderr.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^effectgate: /);
    expect(raw.stderr).toContain(`${policy}:3: bogus`);
    expect(received(b.record)).toEqual([]); // the server never started
  });

  it("a server that cannot be started: the SDK client's error names the command; exit 127", async () => {
    const b = box();
    const args = ["--", "effectgate-no-such-server-xyz", "--flag"];
    const err = await connectError(args, b.env);
    expect(err?.message).toContain("effectgate cannot start (exit 127)");
    expect(err?.message).toContain("effectgate-no-such-server-xyz: command not found on PATH");

    const raw = await rawStart(args, b.env);
    expect(raw.code).toBe(127);
    expect(raw.answer).toMatchObject({ id: 0, error: { code: -32603 } });
    for (const l of raw.stderr.split("\n").filter(Boolean)) expect(l).toMatch(/^effectgate: /);
  });

  it("a mistyped relay option in the client's config: the client sees it, with the near option; exit 2", async () => {
    const b = box();
    const args = ["--levle", "enforce", "--", process.execPath, RECORDING_SERVER];
    const err = await connectError(args, b.env);
    expect(err?.message).toContain("effectgate cannot start (exit 2, usage error)");
    expect(err?.message).toContain('unknown option "--levle"');
    expect(err?.message).toContain("did you mean --level?");
    expect((await rawStart(args, b.env)).code).toBe(2);
    expect(received(b.record)).toEqual([]);
  });

  it("a --url the bridge refuses: the client sees what was expected; exit 2", async () => {
    const b = box();
    const err = await connectError(["--url", "ftp://mcp.example/mcp"], b.env);
    expect(err?.message).toContain("effectgate cannot start (exit 2, usage error)");
    expect(err?.message).toContain('--url: expected an https URL, got the scheme "ftp:"');
    expect((await rawStart(["--url", "ftp://mcp.example/mcp"], b.env)).code).toBe(2);
  });

  it("a lock that cannot be read is a configuration error the client sees too", async () => {
    const b = box();
    const lock = join(b.home, "missing.lock");
    const err = await connectError(
      ["--level", "enforce", "--lock", lock, "--", process.execPath, RECORDING_SERVER],
      b.env,
    );
    expect(err?.message).toContain("exit 78");
    expect(err?.message).toContain(lock);
  });

  it("a relay that starts answers initialize as the server does (nothing of this reaches a good start)", async () => {
    const b = box();
    expect(await connectError(["--", process.execPath, RECORDING_SERVER], b.env)).toBeUndefined();
    expect(received(b.record).map((m) => m.method)).toContain("initialize");
  });
});
