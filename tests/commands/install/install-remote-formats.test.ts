/**
 * `install --remote` in Codex's TOML and Continue's YAML (decision 0115): the remote declaration
 * becomes a stdio one that starts `effectgate --url`, every other byte stays, the wrapped server
 * reaches the real server with the headers the config named, and uninstall restores the file
 * byte for byte. Real files in a temporary HOME; the wrapped command runs as the client would.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse as parseToml } from "smol-toml";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseRelayArgs } from "../../../src/commands/relay.js";
import { cli, freshMachine, type Machine } from "../../clients/helpers.js";
import { legacyServer, type RemoteFixture } from "../../helpers/remote-servers.js";

const machines: Machine[] = [];
let fx: RemoteFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  for (const m of machines.splice(0)) rmSync(m.root, { recursive: true, force: true });
});
function machine(): Machine {
  const m = freshMachine(false);
  machines.push(m);
  return m;
}

/** Starts a wrapped declaration as a client does: its command, args and env; one tool call. */
async function callThrough(decl: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<unknown> {
  const transport = new StdioClientTransport({
    command: decl["command"] as string,
    args: decl["args"] as string[],
    env: env as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: "install-remote-test", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport);
  try {
    return await client.callTool({ name: "echo", arguments: { text: "through" } });
  } finally {
    await client.close();
  }
}

const relayWords = (args: string[]): string[] => args.slice(args.findIndex((a) => a.startsWith("--")));

function codexConfig(url: string, eol: string): string {
  return [
    "# my Codex settings",
    'model = "gpt-5-codex"',
    "",
    "[mcp_servers.tracker] # the team's tracker",
    `url = "${url}"`,
    'bearer_token_env_var = "TRACKER_TOKEN"',
    'http_headers = { "X-Team" = "core" }',
    "startup_timeout_sec = 20",
    "",
    "[mcp_servers.tracker.env_http_headers]",
    'X-Key = "TRACKER_KEY"',
    "",
    "[mcp_servers.local]",
    'command = "python3"',
    'args = ["-m", "local_server"]',
    "",
  ].join(eol);
}

describe("install --remote in a Codex config.toml", () => {
  for (const eol of ["\n", "\r\n"])
    it(`wraps a remote table, its headers reach the server, and uninstall restores it (${JSON.stringify(eol)})`, async () => {
      fx = await legacyServer();
      const m = machine();
      const path = join(m.home, ".codex", "config.toml");
      const original = codexConfig(fx.url, eol);
      writeConfig(path, original);

      const r = cli(m, ["install", "--remote", "--client", "codex"]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain(`wrap    tracker: --url ${fx.url}`);
      const text = readFileSync(path, "utf8");
      // Only the tracker's table changed: the comment, the root keys and the other server stayed.
      expect(
        text.startsWith(
          `# my Codex settings${eol}model = "gpt-5-codex"${eol}${eol}[mcp_servers.tracker] # the team's tracker${eol}`,
        ),
      ).toBe(true);
      expect(text).toContain(`[mcp_servers.local]${eol}command = `);
      expect(text.split("\r\n").length > 1).toBe(eol === "\r\n");
      const doc = parseToml(text) as { mcp_servers: Record<string, Record<string, unknown>> };
      const tracker = doc.mcp_servers["tracker"]!;
      expect(tracker["url"]).toBeUndefined();
      expect(tracker["http_headers"]).toBeUndefined();
      expect(tracker["env_http_headers"]).toBeUndefined();
      expect(tracker["bearer_token_env_var"]).toBeUndefined();
      expect(tracker["startup_timeout_sec"]).toBe(20);
      expect({ ...(tracker["env"] as object) }).toEqual({ EFFECTGATE_HEADER_X_TEAM: "core" });
      expect(tracker["env_vars"]).toEqual(["TRACKER_KEY", "TRACKER_TOKEN"]);
      const args = tracker["args"] as string[];
      expect(args.join(" ")).not.toContain("secret");
      expect(parseRelayArgs(relayWords(args))).toMatchObject({
        name: "tracker",
        remote: {
          url: fx.url,
          headers: ["Authorization: Bearer ${TRACKER_TOKEN}"],
          headerEnv: ["X-Team=EFFECTGATE_HEADER_X_TEAM", "X-Key=TRACKER_KEY"],
        },
      });

      // As Codex starts it: the table's env, and env_vars passed through from the user's.
      const user = { TRACKER_TOKEN: "secret-token-1", TRACKER_KEY: "secret-key-2" };
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: m.home, EFFECTGATE_HOME: m.egHome };
      Object.assign(env, { ...(tracker["env"] as object) });
      for (const v of tracker["env_vars"] as (keyof typeof user)[]) env[v] = user[v];
      const answer = await callThrough(tracker, env);
      expect(JSON.stringify(answer)).toContain("through");
      const posts = fx.requests.filter((q) => q.method === "POST");
      expect(posts.length).toBeGreaterThan(0);
      for (const q of posts) {
        expect(q.headers["authorization"]).toBe("Bearer secret-token-1");
        expect(q.headers["x-key"]).toBe("secret-key-2");
        expect(q.headers["x-team"]).toBe("core");
      }

      const again = cli(m, ["install", "--remote", "--client", "codex"]);
      expect(again.stdout).toContain("wrote 0 file(s)");
      const undo = cli(m, ["uninstall", "--client", "codex"]);
      expect(undo.status, undo.stdout + undo.stderr).toBe(0);
      expect(readFileSync(path, "utf8")).toBe(original);
    });

  it("names a remote server it cannot wrap and leaves the file alone", () => {
    const m = machine();
    const path = join(m.home, ".codex", "config.toml");
    const original = [
      "[mcp_servers]",
      'inline = { url = "https://a.example/mcp" }',
      "",
      "[mcp_servers.own_env]",
      'url = "https://b.example/mcp"',
      'env_vars = ["X"]',
      "",
    ].join("\n");
    writeConfig(path, original);
    const r = cli(m, ["install", "--remote", "--client", "codex"]);
    expect(r.stdout).toMatch(
      /inline: remote server .* UNGUARDED: cannot wrap it: expected the server as a \[mcp_servers\.NAME\] table/,
    );
    expect(r.stdout).toMatch(
      /own_env: remote server .* UNGUARDED: cannot wrap it: it has an env or env_vars of its own/,
    );
    expect(readFileSync(path, "utf8")).toBe(original);
  });

  it("leaves a wrapped table edited since install wrapped, and says so", () => {
    const m = machine();
    const path = join(m.home, ".codex", "config.toml");
    writeConfig(path, '[mcp_servers.t]\nurl = "https://t.example/mcp"\n');
    expect(cli(m, ["install", "--remote", "--client", "codex"]).status).toBe(0);
    writeFileSync(path, `${readFileSync(path, "utf8")}startup_timeout_sec = 5\n`);
    const undo = cli(m, ["uninstall", "--client", "codex"]);
    expect(undo.stdout).toMatch(/t: a remote server install wrapped, edited since; left wrapped/);
    expect(readFileSync(path, "utf8")).toContain("--url");
  });
});

describe("install --remote in a Continue config.yaml", () => {
  it("wraps a remote item, its headers reach the server, and uninstall restores it", async () => {
    fx = await legacyServer();
    const m = machine();
    const path = join(m.home, ".continue", "config.yaml");
    const original = [
      "name: My Config",
      "version: 1.0.0",
      "schema: v1",
      "mcpServers:",
      "  - name: Tracker # hosted",
      "    type: streamable-http",
      `    url: ${fx.url}`,
      "    requestOptions:",
      "      headers:",
      "        Authorization: Bearer secret-yaml-3 # from the vault",
      "  - name: Solo",
      "    command: solo-server",
      "",
    ].join("\n");
    writeConfig(path, original);

    const r = cli(m, ["install", "--remote", "--client", "continue"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`wrap    Tracker: --url ${fx.url}`);
    const text = readFileSync(path, "utf8");
    expect(
      text.startsWith(
        "name: My Config\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: Tracker # hosted\n    type: stdio\n",
      ),
    ).toBe(true);
    const doc = parseYaml(text) as { mcpServers: Record<string, unknown>[] };
    const tracker = doc.mcpServers[0]!;
    expect(tracker["url"]).toBeUndefined();
    expect(tracker["requestOptions"]).toBeUndefined();
    expect(tracker["env"]).toEqual({ EFFECTGATE_HEADER_AUTHORIZATION: "Bearer secret-yaml-3" });
    const args = tracker["args"] as string[];
    expect(args.join(" ")).not.toContain("secret");
    expect(parseRelayArgs(relayWords(args))).toMatchObject({
      name: "Tracker",
      remote: { url: fx.url, headerEnv: ["Authorization=EFFECTGATE_HEADER_AUTHORIZATION"] },
    });

    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: m.home, EFFECTGATE_HOME: m.egHome };
    Object.assign(env, tracker["env"]);
    expect(JSON.stringify(await callThrough(tracker, env))).toContain("through");
    const posts = fx.requests.filter((q) => q.method === "POST");
    expect(posts.length).toBeGreaterThan(0);
    for (const q of posts) expect(q.headers["authorization"]).toBe("Bearer secret-yaml-3");

    const undo = cli(m, ["uninstall", "--client", "continue"]);
    expect(undo.status, undo.stdout + undo.stderr).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
  });

  it("names an item whose requestOptions hold more than headers, and leaves it", () => {
    const m = machine();
    const path = join(m.home, ".continue", "config.yaml");
    const original =
      "mcpServers:\n  - name: Slow\n    url: https://s.example/mcp\n    requestOptions:\n      timeout: 9\n";
    writeConfig(path, original);
    const r = cli(m, ["install", "--remote", "--client", "continue"]);
    expect(r.stdout).toMatch(
      /Slow: remote server .* UNGUARDED: cannot wrap it: its requestOptions hold more than headers/,
    );
    expect(readFileSync(path, "utf8")).toBe(original);
  });
});

function writeConfig(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
