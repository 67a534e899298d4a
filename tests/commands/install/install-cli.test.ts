import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig, writeConfig } from "../../../src/clients/config-io.js";
import { cli, FIXTURES, fixtureFiles, freshMachine, MAIN } from "../../clients/helpers.js";

const GOLDEN = join(import.meta.dirname, "golden", "install-dry-run.txt");

function normalise(out: string, root: string): string {
  return out
    .split(root)
    .join("<ROOT>")
    .split(realpathSync(MAIN))
    .join("<MAIN>")
    .split(process.execPath)
    .join("<NODE>");
}

describe("effectgate install / uninstall (built CLI)", () => {
  it("prints the dry-run plan for every fixture client exactly as the golden file, writing nothing", () => {
    const m = freshMachine();
    const r = cli(m, ["install", "--dry-run", "--project", m.project]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const got = normalise(r.stdout, m.root);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, got);
    expect(got).toBe(readFileSync(GOLDEN, "utf8"));
    for (const rel of fixtureFiles())
      expect(readFileSync(join(m.root, rel))).toEqual(readFileSync(join(FIXTURES, rel)));
  });

  it("install then uninstall is byte-identical for every fixture; a second install writes nothing", () => {
    const m = freshMachine();
    const first = cli(m, ["install", "--project", m.project]);
    expect(first.status, first.stderr + first.stdout).toBe(0);
    // A dev container's servers run inside the container: read, never rewritten.
    const writable = fixtureFiles().filter((rel) => !rel.includes("devcontainer"));
    expect(first.stdout).toContain(`wrote ${writable.length} file(s)`);
    for (const rel of writable)
      expect(readFileSync(join(m.root, rel), "utf8")).not.toBe(readFileSync(join(FIXTURES, rel), "utf8"));
    const second = cli(m, ["install", "--project", m.project]);
    expect(second.stdout).toContain("wrote 0 file(s)");
    const undo = cli(m, ["uninstall", "--project", m.project]);
    expect(undo.status, undo.stdout).toBe(0);
    for (const rel of fixtureFiles())
      expect(readFileSync(join(m.root, rel))).toEqual(readFileSync(join(FIXTURES, rel)));
  });

  it("keeps backups owner-only next to the file, keeps the file's mode, and touches only changed files", () => {
    const m = freshMachine();
    const cursor = join(m.home, ".cursor", "mcp.json");
    chmodSync(cursor, 0o640);
    const remoteOnly = join(m.home, ".gemini", "settings.json");
    writeFileSync(remoteOnly, '{"mcpServers": {"r": {"url": "https://x.example/mcp"}}}\n');
    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(remoteOnly, past, past);
    const r = cli(m, ["install", "--client", "cursor", "--client", "gemini"]);
    expect(r.status, r.stdout).toBe(0);
    expect(statSync(cursor).mode & 0o777).toBe(0o640);
    const backups = readdirSync(dirname(cursor)).filter((n) => n.startsWith("mcp.json.effectgate-backup"));
    expect(backups).toEqual(["mcp.json.effectgate-backup"]);
    const backup = join(dirname(cursor), backups[0] as string);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(readFileSync(backup)).toEqual(readFileSync(join(FIXTURES, "home", ".cursor", "mcp.json")));
    expect(statSync(remoteOnly).mtime.getTime()).toBe(past.getTime());
    expect(readdirSync(dirname(remoteOnly)).filter((n) => n.includes("effectgate"))).toEqual([]);
  });

  it("edits a symlinked config at its target and leaves the link a link", () => {
    const m = freshMachine();
    const real = join(m.root, "dotfiles", "mcp.json");
    mkdirSync(dirname(real), { recursive: true });
    renameSync(join(m.home, ".cursor", "mcp.json"), real);
    symlinkSync(real, join(m.home, ".cursor", "mcp.json"));
    const r = cli(m, ["install", "--client", "cursor"]);
    expect(r.status, r.stdout).toBe(0);
    expect(lstatSync(join(m.home, ".cursor", "mcp.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toContain("--local-timezone=Europe/Paris");
    expect(readFileSync(real, "utf8")).toContain(JSON.stringify(realpathSync(MAIN)));
  });

  it("reports a config that does not parse and leaves it byte for byte", () => {
    const m = freshMachine();
    const path = join(m.home, ".cursor", "mcp.json");
    const broken = readFileSync(path, "utf8").slice(0, 50);
    writeFileSync(path, broken);
    const r = cli(m, ["install", "--client", "cursor", "--project", m.project]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/mcp\.json \(Cursor, user\)\n {2}error {3}does not parse/);
    expect(readFileSync(path, "utf8")).toBe(broken);
    expect(readFileSync(join(m.project, ".cursor", "mcp.json"), "utf8")).toContain(process.execPath);
  });

  it("rejects unknown clients and levels as usage errors", () => {
    const m = freshMachine(false);
    expect(cli(m, ["install", "--client", "notepad"]).status).toBe(2);
    expect(cli(m, ["install", "--level", "paranoid"]).status).toBe(2);
  });
});

describe("safe writes", () => {
  it("refuses to write a file that changed after it was read", () => {
    const m = freshMachine();
    const path = join(m.home, ".cursor", "mcp.json");
    const read = readConfig(path);
    writeFileSync(path, read.text.replace("Europe/Paris", "Europe/Rome")); // the client saved meanwhile
    expect(() => writeConfig(read, "{}\n", { backup: true })).toThrow(/changed since it was read/);
    expect(readFileSync(path, "utf8")).toContain("Europe/Rome");
    expect(readdirSync(dirname(path)).filter((n) => n !== "mcp.json")).toEqual([]);
  });

  it("writes through a temp file and leaves no temp behind", () => {
    const m = freshMachine();
    const path = join(m.home, ".cursor", "mcp.json");
    const backup = writeConfig(readConfig(path), '{"mcpServers": {}}\n', { backup: true });
    expect(readFileSync(path, "utf8")).toBe('{"mcpServers": {}}\n');
    expect(backup).toBe(`${path}.effectgate-backup`);
    expect(existsSync(backup!)).toBe(true);
    expect(readdirSync(dirname(path)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});
