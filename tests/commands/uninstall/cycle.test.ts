// An install/uninstall cycle leaves nothing behind (no backup files), and the servers the user
// unwrapped with uninstall are no alarm for verify or watch; a server that loses its wrapper
// any other way still is.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, FIXTURES, fixtureFiles, freshMachine, MAIN, type Machine } from "../../clients/helpers.js";

const machines: Machine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) rmSync(m.root, { recursive: true, force: true });
});
function machine(): Machine {
  const m = freshMachine();
  machines.push(m);
  return m;
}

/** Every file under `dir` whose name says effectgate left it there. */
function leftovers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/effectgate-backup|\.effectgate-\d+-.*\.tmp$/.test(e.name)) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const run = (m: Machine, args: string[]) => {
  const r = cli(m, args);
  expect(r.status, r.stdout + r.stderr).toBe(0);
  return r.stdout;
};

describe("an install/uninstall cycle", () => {
  it("keeps one backup per written file while wrapped, the bytes before the latest write", () => {
    const m = machine();
    const cursor = join(m.home, ".cursor", "mcp.json");
    const original = readFileSync(cursor);
    run(m, ["install", "--project", m.project]);
    const written = leftovers(m.root);
    expect(written.length).toBeGreaterThan(5);
    expect(written.every((f) => f.endsWith(".effectgate-backup"))).toBe(true);
    expect(readFileSync(`${cursor}.effectgate-backup`)).toEqual(original);
    expect(statSync(`${cursor}.effectgate-backup`).mode & 0o777).toBe(0o600);
    const wrapped = readFileSync(cursor);
    // A rewrap (another level) replaces the backup: still one per file.
    run(m, ["install", "--level", "enforce", "--project", m.project]);
    expect(leftovers(m.root)).toEqual(written);
    expect(readFileSync(`${cursor}.effectgate-backup`)).toEqual(wrapped);
  });

  it("leaves no backup file at all once uninstall has restored every file", () => {
    const m = machine();
    run(m, ["install", "--project", m.project]);
    run(m, ["install", "--level", "strict", "--project", m.project]);
    const undo = run(m, ["uninstall", "--project", m.project]);
    expect(undo).toContain("written (no wrapper left, so no backup kept)");
    expect(leftovers(m.root)).toEqual([]);
    for (const rel of fixtureFiles())
      expect(readFileSync(join(m.root, rel))).toEqual(readFileSync(join(FIXTURES, rel)));
  });

  it("keeps the backup of a file that still holds something shaped like a wrapper", () => {
    const m = machine();
    const cursor = join(m.home, ".cursor", "mcp.json");
    const config = {
      mcpServers: {
        ok: { command: "my-server" },
        // Shaped like effectgate's wrapper but broken (nothing after --): left alone by both.
        odd: { command: process.execPath, args: [MAIN, "--level", "enforce", "--"] },
      },
    };
    writeFileSync(cursor, JSON.stringify(config, null, 2));
    run(m, ["install", "--client", "cursor"]);
    run(m, ["uninstall", "--client", "cursor"]);
    expect(readFileSync(cursor, "utf8")).toBe(JSON.stringify(config, null, 2));
    expect(leftovers(join(m.home, ".cursor"))).toEqual(["mcp.json.effectgate-backup"]);
  });
});

describe("verify and watch after uninstall", () => {
  it("verify stays quiet (exit 0, no LOST) for servers uninstall unwrapped, and says so in one note", () => {
    const m = machine();
    run(m, ["install", "--project", m.project]);
    run(m, ["verify", "--write", "--project", m.project]);
    run(m, ["uninstall", "--project", m.project]);
    const v = cli(m, ["verify"]);
    expect(v.stdout).not.toMatch(/LOST/);
    expect(v.status, v.stdout).toBe(0);
    expect(v.stdout).toMatch(
      /^configs unchanged since the baseline\nnote: effectgate uninstall unwrapped \d+ server\(s\) since the baseline; /,
    );
  });

  it("still calls a server LOST when its wrapper goes any other way, or it changes after uninstall", () => {
    const m = machine();
    const cursor = join(m.home, ".cursor", "mcp.json");
    run(m, ["install", "--client", "cursor"]);
    run(m, ["verify", "--write"]);
    // A hand edit (or malware) takes the wrapper off one server.
    const doc = JSON.parse(readFileSync(cursor, "utf8")) as {
      mcpServers: Record<string, { command: string; args?: string[] }>;
    };
    doc.mcpServers.time = { command: "uvx", args: ["mcp-server-time", "--local-timezone=Europe/Paris"] };
    writeFileSync(cursor, JSON.stringify(doc, null, 2));
    const byHand = cli(m, ["verify"]);
    expect(byHand.status).toBe(1);
    expect(byHand.stdout).toContain("!! server time LOST its effectgate wrapper");

    // Unwrapped by uninstall, then changed: the memo is for the command uninstall wrote only.
    run(m, ["install", "--client", "cursor"]);
    run(m, ["uninstall", "--client", "cursor"]);
    expect(cli(m, ["verify"]).status).toBe(0);
    const again = JSON.parse(readFileSync(cursor, "utf8")) as typeof doc;
    again.mcpServers.bare = { command: "my-server", args: ["--evil"] };
    writeFileSync(cursor, JSON.stringify(again, null, 2));
    const changed = cli(m, ["verify"]);
    expect(changed.status).toBe(1);
    expect(changed.stdout).toContain("!! server bare LOST its effectgate wrapper");
    expect(changed.stdout).not.toContain("server time LOST");
  });

  it("watch shows no LOST line when uninstall runs while it watches", async () => {
    const m = machine();
    run(m, ["install", "--client", "cursor"]);
    run(m, ["verify", "--write"]);
    const child = spawn(process.execPath, [MAIN, "watch"], {
      env: m.env,
      cwd: m.project,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const waitFor = async (pattern: RegExp): Promise<void> => {
      for (let i = 0; i < 200 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(pattern);
    };
    try {
      await waitFor(/configs unchanged since the baseline/);
      run(m, ["uninstall", "--client", "cursor"]);
      await waitFor(/note: effectgate uninstall unwrapped \d+ server\(s\)/);
      expect(out).not.toMatch(/LOST/);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
