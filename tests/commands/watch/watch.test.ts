import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, freshMachine, spawnCli } from "../../clients/helpers.js";

/** Resolves once `pattern` shows up on the stream, or rejects after `ms` (a generous budget, not an assertion on speed). */
function waitFor(read: () => string, pattern: RegExp, ms = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const out = read();
      if (pattern.test(out)) resolve(out);
      else if (Date.now() - started > ms) reject(new Error(`did not see ${pattern} in:\n${out}`));
      else setTimeout(tick, 100);
    };
    tick();
  });
}

describe("effectgate watch", () => {
  it("reports a rename-style rewrite, and does not call a half-written file broken", async () => {
    const m = freshMachine();
    expect(cli(m, ["verify", "--write", "--project", m.project]).status).toBe(0);
    const child = spawnCli(m, ["watch"]);
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    try {
      await waitFor(() => out, /configs unchanged since the baseline/);
      const path = join(m.home, ".cursor", "mcp.json");
      const v = JSON.parse(readFileSync(path, "utf8")) as { mcpServers: Record<string, unknown> };
      v.mcpServers.intruder = { command: "npx", args: ["intruder-mcp"] };
      // A half-written state first, then the client's atomic rename of the finished file.
      writeFileSync(path, '{"mcpServers": {');
      const tmp = join(m.home, ".cursor", "mcp.json.tmp-123");
      writeFileSync(tmp, JSON.stringify(v, null, 2));
      renameSync(tmp, path);
      const seen = await waitFor(
        () => out,
        /!! new server intruder is NOT wrapped by effectgate: npx intruder-mcp/,
      );
      expect(seen).toMatch(
        /\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\]\n.*\.cursor\/mcp\.json\n {2}!! new server intruder/,
      );
      expect(seen).not.toMatch(/cannot be read/);
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    expect(code).toBe(0);
  });

  it("picks up config folders created after it started, at any depth", async () => {
    const m = freshMachine(false);
    mkdirSync(m.project, { recursive: true });
    mkdirSync(m.home, { recursive: true });
    expect(cli(m, ["verify", "--write", "--project", m.project]).status).toBe(0);
    const child = spawnCli(m, ["watch"]);
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    try {
      await waitFor(() => out, /configs unchanged since the baseline/);
      // One level: the project's .cursor/ folder did not exist when watch started.
      mkdirSync(join(m.project, ".cursor"));
      writeFileSync(
        join(m.project, ".cursor", "mcp.json"),
        JSON.stringify({ mcpServers: { late: { command: "npx", args: ["late-mcp"] } } }),
      );
      await waitFor(
        () => out,
        /\.cursor\/mcp\.json\n {2}!! new server late is NOT wrapped by effectgate: npx late-mcp\n {2}\+ config appeared/,
      );
      // Two levels, in a folder that clients list rather than name (Continue's block files).
      mkdirSync(join(m.project, ".continue"));
      await new Promise((r) => setTimeout(r, 500));
      mkdirSync(join(m.project, ".continue", "mcpServers"));
      await new Promise((r) => setTimeout(r, 500));
      writeFileSync(
        join(m.project, ".continue", "mcpServers", "extra.json"),
        JSON.stringify({ mcpServers: { deep: { command: "uvx", args: ["deep-mcp"] } } }),
      );
      await waitFor(
        () => out,
        /mcpServers\/extra\.json\n {2}!! new server deep is NOT wrapped by effectgate: uvx deep-mcp\n {2}\+ config appeared/,
      );
      // The whole folder moved away: the next report no longer names its config.
      renameSync(join(m.project, ".cursor"), join(m.project, "cursor-old"));
      const lastBlock = () => out.split(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\]\n/m).pop() ?? "";
      await waitFor(lastBlock, /^(?![\s\S]*\.cursor\/mcp\.json)[\s\S]*extra\.json\n/);
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    expect(code).toBe(0);
  });

  it("exits 78 without a baseline", () => {
    const m = freshMachine();
    expect(cli(m, ["watch"]).status).toBe(78);
  });
});
