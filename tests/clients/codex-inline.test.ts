// Codex servers written as inline tables, through the built CLI: wrapped in place (no new
// tables), parsed back by smol-toml to the intended servers, and restored byte for byte.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { cli, freshMachine, MAIN } from "./helpers.js";

describe("Codex inline tables (built CLI)", () => {
  it("wraps and unwraps servers declared as inline tables under [mcp_servers]", () => {
    const m = freshMachine(false);
    const path = join(m.home, ".codex", "config.toml");
    mkdirSync(join(m.home, ".codex"), { recursive: true });
    const original =
      '# Codex\r\nmodel = "gpt-5-codex"\r\n\r\n[mcp_servers]\r\n' +
      'docs = { command = "npx", args = ["-y", "mcp-server-docs"], env = { T = "x" } } # docs\r\n' +
      'empty = { command = "tool-mcp", args = [] }\r\n' +
      'remote = { url = "https://mcp.example.com/mcp" }\r\n';
    writeFileSync(path, original);
    const r = cli(m, ["install", "--client", "codex"]);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain("skip    remote: remote server https://mcp.example.com/mcp is UNGUARDED");
    const wrapped = readFileSync(path, "utf8");
    const main = realpathSync(MAIN);
    expect(JSON.parse(JSON.stringify(parse(wrapped)))).toEqual({
      model: "gpt-5-codex",
      mcp_servers: {
        docs: {
          command: process.execPath,
          args: [main, "--name", "docs", "--", "npx", "-y", "mcp-server-docs"],
          env: { T: "x" },
        },
        empty: { command: process.execPath, args: [main, "--name", "empty", "--", "tool-mcp"] },
        remote: { url: "https://mcp.example.com/mcp" },
      },
    });
    // Only the two declarations' lines changed; comments, CRLF and the other lines are as they were.
    const lines = (s: string) => s.split("\r\n");
    const changed = lines(wrapped).filter((l, i) => l !== lines(original)[i]);
    expect(changed.map((l) => l.split(" = ")[0])).toEqual(["docs", "empty"]);
    expect(wrapped).toContain("} # docs\r\n");
    expect(wrapped.replace(/\r\n/g, "")).not.toContain("\n");
    expect(cli(m, ["uninstall", "--client", "codex"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
  });
});
