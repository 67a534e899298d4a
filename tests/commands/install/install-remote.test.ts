/**
 * `install --remote`: remote servers of client configs become `effectgate --url` stdio servers,
 * and uninstall puts their original text back byte for byte (decision 0101).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseRelayArgs } from "../../../src/commands/relay.js";
import { cli, FIXTURES, fixtureFiles, freshMachine, type Machine } from "../../clients/helpers.js";

const machines: Machine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) rmSync(m.root, { recursive: true, force: true });
});
function machine(): Machine {
  const m = freshMachine();
  machines.push(m);
  return m;
}

const claude = (m: Machine) =>
  JSON.parse(readFileSync(join(m.home, ".claude.json"), "utf8")) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };

describe("install --remote", () => {
  it("wraps a remote server as effectgate --url, header values in env, read with --header-env", () => {
    const m = machine();
    const path = join(m.home, ".claude.json");
    const original = readFileSync(path, "utf8");
    const doc = JSON.parse(original) as { mcpServers: Record<string, Record<string, unknown>> };
    doc.mcpServers["tracker"] = {
      type: "http",
      url: "https://mcp.tracker.example/mcp",
      headers: { Authorization: "Bearer ${TRACKER_TOKEN}", "X-Team": "core" },
    };
    writeFileSync(path, JSON.stringify(doc, null, 2));
    const r = cli(m, ["install", "--remote", "--client", "claude-code"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrap {4}tracker: --url https:\/\/mcp\.tracker\.example\/mcp/);
    const entry = claude(m).mcpServers["tracker"]!;
    expect(entry["url"]).toBeUndefined();
    expect(entry["headers"]).toBeUndefined();
    expect(entry["type"]).toBe("stdio");
    expect(entry["env"]).toEqual({
      EFFECTGATE_HEADER_AUTHORIZATION: "Bearer ${TRACKER_TOKEN}",
      EFFECTGATE_HEADER_X_TEAM: "core",
    });
    const args = entry["args"] as string[];
    // No header value on the command line: other users can read a process's arguments.
    expect(args.join(" ")).not.toContain("Bearer");
    const relayArgs = args.slice(args.indexOf("--name"));
    expect(parseRelayArgs(relayArgs)).toMatchObject({
      name: "tracker",
      remote: {
        url: "https://mcp.tracker.example/mcp",
        headerEnv: ["Authorization=EFFECTGATE_HEADER_AUTHORIZATION", "X-Team=EFFECTGATE_HEADER_X_TEAM"],
      },
    });
  });

  it("install --remote then uninstall is byte-identical for every fixture config", () => {
    const m = machine();
    const first = cli(m, ["install", "--remote", "--project", m.project]);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    // Remote servers of every format were wrapped: JSON, Codex's TOML and Continue's YAML.
    expect(first.stdout).toMatch(/wrap {4}sentry: --url https:\/\/mcp\.sentry\.dev\/mcp/);
    expect(first.stdout).toMatch(/wrap {4}remote: --url https:\/\/mcp\.example\.com\/mcp/);
    expect(first.stdout).toMatch(/wrap {4}Remote: --url https:\/\/mcp\.example\.com\/mcp/);
    const second = cli(m, ["install", "--remote", "--project", m.project]);
    expect(second.stdout).toContain("wrote 0 file(s)");
    const undo = cli(m, ["uninstall", "--project", m.project]);
    expect(undo.status, undo.stdout).toBe(0);
    for (const rel of fixtureFiles())
      expect(readFileSync(join(m.root, rel), "utf8"), rel).toBe(readFileSync(join(FIXTURES, rel), "utf8"));
  });

  it("leaves remote servers alone without --remote, naming them", () => {
    const m = machine();
    const r = cli(m, ["install", "--client", "claude-code"]);
    expect(r.stdout).toMatch(
      /skip {4}sentry: remote server .* is UNGUARDED: run effectgate install --remote/,
    );
    expect(claude(m).mcpServers["sentry"]?.["url"]).toBe("https://mcp.sentry.dev/mcp");
  });

  it("without its memo, uninstall leaves a wrapped remote server wrapped and says why", () => {
    const m = machine();
    expect(cli(m, ["install", "--remote", "--client", "claude-code"]).status).toBe(0);
    const wrapped = readFileSync(join(m.home, ".claude.json"), "utf8");
    rmSync(join(m.egHome, "install-memos.json"));
    const undo = cli(m, ["uninstall", "--client", "claude-code"]);
    expect(undo.stdout).toMatch(/sentry: a wrapped remote server with no install memo/);
    expect(claude(m).mcpServers["sentry"]?.["url"]).toBeUndefined();
    expect(readFileSync(join(m.home, ".claude.json"), "utf8")).not.toBe(wrapped); // stdio servers came back
  });

  it("does not bridge a WebSocket server", () => {
    const m = machine();
    const path = join(m.home, ".cursor", "mcp.json");
    writeFileSync(path, JSON.stringify({ mcpServers: { ws: { type: "ws", url: "wss://x.example/mcp" } } }));
    const r = cli(m, ["install", "--remote", "--client", "cursor"]);
    expect(r.stdout).toMatch(/ws: remote server .* UNGUARDED: cannot wrap it: a WebSocket server/);
  });
});
