// Black-box (built CLI): `approve` starts the server to read its tools, and leaves nothing of it
// running afterwards, even what the server started itself (`npx -y pkg` is npx, a shell and
// node), and even when `approve` is interrupted mid-probe (POSIX only: on Windows only the server
// process itself is signalled, decision 0003).
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { killedAfterEach, pidFrom, stopped } from "../relay/cli-session.js";
import { fixture } from "../relay/helpers.js";
import { CLI, sandbox } from "./harness.js";

const started = killedAfterEach();

/** A server that answers the probe, or (`silent`) never answers anything. */
function writeServer(home: string, silent: boolean): string {
  const server = join(home, "server.mjs");
  writeFileSync(
    server,
    silent
      ? "process.stdin.resume();\n"
      : `process.stdin.on("data", (d) => { for (const l of String(d).split("\\n").filter(Boolean)) { const m = JSON.parse(l); if (m.id === undefined) continue;
  const result = m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "parent", version: "1" } }
    : m.method === "tools/list" ? { tools: [{ name: "t", description: "d", inputSchema: { type: "object" } }] } : {};
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n"); } });
process.stdin.on("end", () => process.exit(0));\n`,
  );
  return server;
}

/**
 * `approve` around `sh -c 'grandchild & exec node server'`: the grandchild ignores stdin. The
 * server starts once the grandchild has written its pid, so a fast probe cannot end before it.
 */
function approve(silent: boolean) {
  const { home, env } = sandbox();
  const pidFile = join(home, "grandchild.pid");
  const lock = join(home, "effectgate.lock");
  const script = `"${process.execPath}" "${fixture("grandchild.mjs")}" & while [ ! -s "$PID_FILE" ]; do sleep 0.05; done; exec "${process.execPath}" "${writeServer(home, silent)}"`;
  const child = spawn(process.execPath, [CLI, "approve", "--lock", lock, "--", "sh", "-c", script], {
    env: { ...env, PID_FILE: pidFile },
    cwd: home,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stderr })),
  );
  return { child, done, lock, grandchild: pidFrom(pidFile) };
}

describe.skipIf(process.platform === "win32")("approve stops the server's whole process group", () => {
  it("after a probe that succeeded, what the server started is gone too", async () => {
    const run = approve(false);
    const grandchild = await run.grandchild;
    started.push(grandchild);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(run.lock)).toBe(true);
    expect(await stopped(grandchild)).toBe(true);
  });

  it("Ctrl-C during the probe: the signal reaches the server's group, exit 130, no lock written", async () => {
    const run = approve(true);
    const grandchild = await run.grandchild;
    started.push(grandchild);
    run.child.kill("SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("interrupted by SIGINT");
    expect(existsSync(run.lock)).toBe(false);
    expect(await stopped(grandchild)).toBe(true);
  });
});
