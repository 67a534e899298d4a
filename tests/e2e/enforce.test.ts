import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { CLI, RawClient, RECORDING_SERVER, received, sandbox } from "./harness.js";

// The policy engine judged by what reached a recording server and the disk, through the built CLI
// and the shipped default policy.

function relay(level: string, env: NodeJS.ProcessEnv): RawClient {
  return new RawClient(["--level", level, "--", process.execPath, RECORDING_SERVER], env);
}

describe("default policy at enforce, black-box", () => {
  it("refuses a denied write before the server sees it, and lets an allowed one through", async () => {
    const { home, env, record } = sandbox();
    const c = relay("enforce", env);
    await c.initialize();
    const keys = join(home, ".ssh", "authorized_keys");
    const refused = await c.call("call-1", "write_file", {
      path: keys,
      content: "ssh-ed25519 AAAA attacker",
    });
    const note = join(home, "project", "notes.md");
    const allowed = await c.call(2, "write_file", { path: note, content: "hello" });
    expect(await c.close()).toBe(0);

    expect(refused.id).toBe("call-1");
    const result = refused.result as { isError: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("write_file");
    expect(result.content[0]!.text).toContain(keys);
    expect(existsSync(keys)).toBe(false);
    expect(
      received(record)
        .filter((m) => m.method === "tools/call")
        .map((m) => m.id),
    ).toEqual([2]);

    expect(allowed.id).toBe(2);
    expect((allowed.result as { isError?: boolean }).isError).toBeUndefined();
    expect(existsSync(note)).toBe(true);
  });

  it("observe refuses nothing: the same denied write reaches the server and the disk", async () => {
    const { home, env, record } = sandbox();
    const c = relay("observe", env);
    await c.initialize();
    const keys = join(home, ".ssh", "authorized_keys");
    const answer = await c.call(7, "write_file", { path: keys, content: "x" });
    await c.close();
    expect((answer.result as { isError?: boolean }).isError).toBeUndefined();
    expect(existsSync(keys)).toBe(true);
    expect(received(record).some((m) => m.method === "tools/call" && m.id === 7)).toBe(true);
  });

  it("a tainted session turns a confirm-if-tainted write into a confirm: relayed and announced at enforce", async () => {
    const { home, env, record } = sandbox();
    const c = relay("enforce", env);
    await c.initialize();
    const script = join(home, "project", "build.sh");
    await c.call(1, "fetch", { url: "https://example.com/page" });
    const answer = await c.call(2, "write_file", { path: script, content: "echo hi" });
    await c.close();
    expect((answer.result as { isError?: boolean }).isError).toBeUndefined();
    expect(existsSync(script)).toBe(true);
    expect(received(record).some((m) => m.id === 2)).toBe(true);
    expect(c.stderr).toMatch(/build\.sh|\*\.sh/);
  });

  it("strict refuses the same tainted write, but not before taint", async () => {
    const { home, env, record } = sandbox();
    const c = relay("strict", env);
    await c.initialize();
    const before = join(home, "project", "before.sh");
    const after = join(home, "project", "after.sh");
    const clean = await c.call(1, "write_file", { path: before, content: "echo 1" });
    await c.call(2, "fetch", { url: "https://example.com/page" });
    const tainted = await c.call(3, "write_file", { path: after, content: "echo 2" });
    await c.close();
    expect((clean.result as { isError?: boolean }).isError).toBeUndefined();
    expect((tainted.result as { isError?: boolean }).isError).toBe(true);
    expect(existsSync(before)).toBe(true);
    expect(existsSync(after)).toBe(false);
    expect(received(record).some((m) => m.id === 3)).toBe(false);
  });

  it("the official SDK client surfaces a refusal as a tool error without throwing", async () => {
    const { home, env } = sandbox();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--level", "enforce", "--", process.execPath, RECORDING_SERVER],
      env: env as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(transport);
    const result = await client.callTool({
      name: "write_file",
      arguments: { path: join(home, ".bashrc"), content: "evil" },
    });
    await client.close();
    expect(result.isError).toBe(true);
    expect(existsSync(join(home, ".bashrc"))).toBe(false);
  });
});
