// Every subcommand `effectgate --help` lists must exist: a listed command that crashes on load
// (as `demo` did, with no dist/commands/demo.js) is a broken promise to the user.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");
const home = mkdtempSync(join(tmpdir(), "eg-help-"));
const env = { ...process.env, HOME: home, USERPROFILE: home, EFFECTGATE_HOME: join(home, ".effectgate") };
const cli = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env });

describe("effectgate --help", () => {
  const help = cli("--help");
  const lines = help.stdout.split("\n");
  const from = lines.indexOf("Commands:") + 1;
  const listed = lines
    .slice(from, lines.indexOf("", from))
    .map((l) => /^ {2}(\S+)/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined);

  it("lists the subcommands and exits 0", () => {
    expect(help.status).toBe(0);
    expect(from).toBeGreaterThan(0);
    expect(listed).toContain("check");
    expect(listed).toContain("help");
    expect(listed).not.toContain("demo"); // the demo is `npm run demo` (scripts/demo.mjs)
  });

  it.each(listed)("%s --help exits 0", (command) => {
    const r = cli(command, "--help");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toBe("");
  });
});
