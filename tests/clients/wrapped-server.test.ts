import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { cli, freshMachine, MAIN, REPO } from "./helpers.js";

const SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

describe("a Claude-Code-style .mcp.json wrapped by install", () => {
  it("starts the real filesystem server through effectgate from the written command line", async () => {
    const m = freshMachine(false);
    const data = join(m.root, "data");
    mkdirSync(data, { recursive: true });
    mkdirSync(m.project, { recursive: true });
    writeFileSync(join(data, "hello.txt"), "hello through the relay\n");
    const original = {
      mcpServers: { files: { command: process.execPath, args: [SERVER, data], env: { MARK: "kept" } } },
    };
    writeFileSync(join(m.project, ".mcp.json"), JSON.stringify(original, null, 2) + "\n");

    const r = cli(m, ["install", "--client", "claude-code", "--project", m.project]);
    expect(r.status, r.stdout + r.stderr).toBe(0);

    const written = JSON.parse(readFileSync(join(m.project, ".mcp.json"), "utf8")) as typeof original;
    const decl = written.mcpServers.files;
    expect(decl.command).toBe(process.execPath);
    expect(decl.args[0]).toBe(realpathSync(MAIN));
    expect(decl.args.slice(decl.args.indexOf("--") + 1)).toEqual([process.execPath, SERVER, data]);
    expect(decl.env).toEqual({ MARK: "kept" });

    const transport = new StdioClientTransport({
      command: decl.command,
      args: decl.args,
      env: { PATH: process.env.PATH ?? "", HOME: m.home, EFFECTGATE_HOME: m.egHome, ...decl.env },
      stderr: "pipe",
    });
    const client = new Client({ name: "clients-test", version: "0" });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("read_text_file");
      const res = await client.callTool({
        name: "read_text_file",
        arguments: { path: join(data, "hello.txt") },
      });
      const text = (res.content as { type: string; text: string }[]).map((c) => c.text).join("");
      expect(text).toContain("hello through the relay");
    } finally {
      await client.close();
    }
  });
});
