// Issue 17: shared taint was keyed on the relay's direct parent, so a relay the client started
// through `sh -c`, `npx` or a `.cmd` shim was another client's and took none of its taint. Here
// the official SDK client (this test process) starts one relay directly and others through a real
// `sh -c` and a real `npx` (a local bin, no network): a page fetched through the first makes a
// command through each other one a deny, and the command never reaches its server.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { CLI, RECORDING_SERVER, received, sandbox } from "./harness.js";

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

async function connect(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<Client> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: env as Record<string, string>,
    ...(cwd === undefined ? {} : { cwd }),
    stderr: "ignore",
  });
  const client = new Client({ name: "launchers", version: "1" });
  await client.connect(transport);
  return client;
}

/** A folder whose node_modules/.bin/effectgate is this build, as `npm install` would link it. */
function npxProject(home: string): string {
  const dir = join(home, "npx-project");
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", private: true }));
  const bin = join(dir, "effectgate.mjs");
  writeFileSync(bin, `#!/usr/bin/env node\nimport ${JSON.stringify(CLI)};\n`);
  chmodSync(bin, 0o755);
  symlinkSync(bin, join(dir, "node_modules", ".bin", "effectgate"));
  return dir;
}

const relayArgs = (name: string): string[] => [
  "--level",
  "enforce",
  "--name",
  name,
  "--",
  process.execPath,
  RECORDING_SERVER,
];

describe("shared taint through launchers", () => {
  it("a fetch through one relay makes commands through relays behind sh -c and npx a deny", async () => {
    const { env, home } = sandbox();
    const rec = (n: string) => ({ ...env, RECORD_FILE: join(home, `${n}.jsonl`) });
    const web = await connect(process.execPath, [CLI, ...relayArgs("web")], rec("web"));
    const viaSh = await connect(
      "sh",
      ["-c", `${[process.execPath, CLI, ...relayArgs("sh")].map(q).join(" ")}; exit $?`],
      rec("sh"),
    );
    // No network: npm neither installs (--no) nor looks for its own updates.
    const npmEnv = {
      ...rec("npx"),
      npm_config_update_notifier: "false",
      npm_config_cache: join(home, ".npm"),
    };
    const viaNpx = await connect(
      "npx",
      ["--no", "--", "effectgate", ...relayArgs("npx")],
      npmEnv,
      npxProject(home),
    );
    try {
      const before = await viaSh.callTool({
        name: "run_command",
        arguments: { command: "git push origin main" },
      });
      expect(before.isError).toBeFalsy();
      await web.callTool({ name: "fetch", arguments: { url: "https://example.com/issue/1" } });
      for (const c of [viaSh, viaNpx]) {
        const after = await c.callTool({
          name: "run_command",
          arguments: { command: "git push origin main" },
        });
        expect(after.isError).toBe(true);
        expect(JSON.stringify(after.content)).toContain("untrusted content");
      }
    } finally {
      await Promise.all([web.close(), viaSh.close(), viaNpx.close()]);
    }
    const commands = (n: string) =>
      received(join(home, `${n}.jsonl`)).filter(
        (m) => m.method === "tools/call" && m.params?.name === "run_command",
      );
    expect(commands("sh")).toHaveLength(1); // the one before the fetch
    expect(commands("npx")).toEqual([]);
  }, 60_000);
});
