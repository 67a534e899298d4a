import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, freshMachine, type Machine } from "../../clients/helpers.js";

function recorded(): Machine {
  const m = freshMachine();
  const w = cli(m, ["verify", "--write", "--project", m.project]);
  expect(w.status, w.stderr).toBe(0);
  return m;
}

interface Decl {
  command?: string;
  args?: string[];
  url?: string;
  env?: Record<string, string>;
  headers?: Record<string, string>;
}
interface Doc {
  mcpServers: Record<string, Decl>;
  [key: string]: unknown;
}

function edit(path: string, f: (v: Doc) => void, indent = 2): void {
  const v = JSON.parse(readFileSync(path, "utf8")) as Doc;
  f(v);
  writeFileSync(path, JSON.stringify(v, null, indent) + "\n");
}

describe("effectgate verify", () => {
  it("reports no drift right after --write, and never stores env or header values", () => {
    const m = recorded();
    const lock = readFileSync(join(m.egHome, "configs.lock"), "utf8");
    expect(lock).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN"');
    for (const secret of ["ghp_x", "secret-1", "Bearer y", "abc"]) expect(lock).not.toContain(secret);
    const r = cli(m, ["verify"]);
    expect(r.stdout).toBe("configs unchanged since the baseline\n");
    expect(r.status).toBe(0);
  });

  it("ignores env value changes, header value changes and key reordering", () => {
    const m = recorded();
    const claude = join(m.home, ".claude.json");
    edit(
      claude,
      (v) => {
        const github = v.mcpServers.github as Decl;
        (github.env as Record<string, string>).GITHUB_PERSONAL_ACCESS_TOKEN = "ghp_rotated";
        ((v.mcpServers.sentry as Decl).headers as Record<string, string>).Authorization = "Bearer z";
        v.numStartups = 13;
        const { args, command, ...rest } = github;
        v.mcpServers.github = { ...rest, args, command };
      },
      4,
    );
    const r = cli(m, ["verify"]);
    expect(r.stdout).toBe("configs unchanged since the baseline\n");
    expect(r.status).toBe(0);
  });

  it("detects every kind of drift, loudest first", () => {
    const m = recorded();
    // installed, then recorded: now every stdio server carries the wrapper
    expect(
      cli(m, ["install", "--client", "cursor", "--client", "claude-code", "--project", m.project]).status,
    ).toBe(0);
    expect(cli(m, ["verify", "--write", "--project", m.project]).status).toBe(0);
    const cursor = join(m.home, ".cursor", "mcp.json");
    edit(cursor, (v) => {
      v.mcpServers.time = { command: "uvx", args: ["mcp-server-time"] }; // lost its wrapper
      v.mcpServers.sneaky = { command: "npx", args: ["evil-server"] }; // new, unwrapped
      v.mcpServers.hosted = { url: "https://new.example/mcp" }; // new, remote
      delete v.mcpServers.bare; // removed
      v.mcpServers["remote-notes"] = { url: "https://other.example/mcp", headers: { "X-Other": "1" } }; // url and header NAME changed
    });
    rmSync(join(m.project, ".mcp.json")); // vanished
    writeFileSync(join(m.home, ".codeium", "mcp_config.json"), '{"mcpServers": {}}\n'); // appeared
    writeFileSync(join(m.home, ".gemini", "settings.json"), '{"mcpServers": {'); // unreadable

    const r = cli(m, ["verify"]);
    expect(r.status).toBe(1);
    const out = r.stdout;
    expect(out).toMatch(
      /!! server time LOST its effectgate wrapper: .*main\.js --name time -- uvx mcp-server-time --local-timezone=Europe\/Paris -> uvx mcp-server-time\n/,
    );
    expect(out).toContain("!! new server sneaky is NOT wrapped by effectgate: npx evil-server");
    expect(out).toContain("+ server hosted added: remote https://new.example/mcp (UNGUARDED)");
    expect(out).toMatch(/- server bare removed \(was .*-- my-server\)/);
    expect(out).toContain(
      "~ server remote-notes changed: remote https://notes.example.com/mcp (UNGUARDED) -> remote https://other.example/mcp (UNGUARDED); header names: [X-Api-Key] -> [X-Other]",
    );
    expect(out).toMatch(/project\/\.mcp\.json\n {2}- config vanished \(had 2 server\(s\)\)/);
    expect(out).toMatch(/\.codeium\/mcp_config\.json\n {2}\+ config appeared \(0 server\(s\)\)/);
    expect(out).toMatch(/\.gemini\/settings\.json\n {2}! config cannot be read: does not parse/);
    const cursorBlock = out.slice(out.indexOf(cursor));
    expect(cursorBlock.indexOf("LOST")).toBeLessThan(cursorBlock.indexOf("removed"));
  });

  it("exits 78 when the baseline is missing, tampered with or has unknown keys", () => {
    const m = freshMachine();
    const missing = cli(m, ["verify"]);
    expect(missing.status).toBe(78);
    expect(missing.stderr).toMatch(
      /configs\.lock: baseline: expected a file written by `effectgate verify --write`, got no such file/,
    );

    expect(cli(m, ["verify", "--write", "--project", m.project]).status).toBe(0);
    const lockPath = join(m.egHome, "configs.lock");
    const good = readFileSync(lockPath, "utf8");
    writeFileSync(lockPath, good.replace('"command":"uvx"', '"command":"evil"'));
    const tampered = cli(m, ["verify"]);
    expect(tampered.status).toBe(78);
    expect(tampered.stderr).toMatch(
      /configs\.lock:1: files\.\d+\.servers\.\d+\.hash: expected [0-9a-f]{64}, got [0-9a-f]{64}/,
    );

    writeFileSync(lockPath, good.replace('{"files":', '{"extra":true,"files":'));
    const unknown = cli(m, ["verify", "--baseline", lockPath]);
    expect(unknown.status).toBe(78);
    expect(unknown.stderr).toMatch(/unknown key extra/);
  });
});
