import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, sandbox } from "./harness.js";

// approve starts the server with the environment the relay would give it (17.6 of the prior art:
// the old probe ran servers with the full, unfiltered environment).
describe("approve and env.deny", () => {
  it("the probed server never sees a variable the policy denies", () => {
    const { home, env } = sandbox();
    const server = join(home, "server.mjs");
    writeFileSync(
      server,
      `const saw = "GITHUB_TOKEN" in process.env ? "saw the token" : "clean";
process.stdin.on("data", (d) => { for (const l of String(d).split("\\n").filter(Boolean)) { const m = JSON.parse(l); if (m.id === undefined) continue;
  const result = m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "envy", version: "1" } }
    : m.method === "tools/list" ? { tools: [{ name: "probe", description: saw, inputSchema: { type: "object" } }] } : {};
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n"); } });`,
    );
    const policy = join(home, "policy.yaml");
    writeFileSync(policy, "version: 1\nenv:\n  deny: ['*_TOKEN']\n");
    const lock = join(home, "effectgate.lock");
    const run = (extra: string[]) =>
      spawnSync(
        process.execPath,
        [CLI, "approve", "--lock", lock, ...extra, "--", process.execPath, server],
        {
          env: { ...env, GITHUB_TOKEN: "ghp_x" },
          encoding: "utf8",
          cwd: home,
        },
      );
    expect(run(["--policy", policy]).status).toBe(0);
    expect(readFileSync(lock, "utf8")).toContain('"clean"');
    // Without the policy's filter the same server sees the token: the check above can fail.
    expect(run([]).status).toBe(0);
    expect(readFileSync(lock, "utf8")).toContain('"saw the token"');
  });
});
