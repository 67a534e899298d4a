import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, freshMachine } from "./clients/helpers.js";

// Every command the README gives a new user runs (issue 21): the effectgate lines of its shell
// blocks here, in order, on a fresh machine with every client's config; the npm lines in .ci/run
// or the package test. A README command that breaks, or a new one nobody runs, fails this file.
const ROOT = join(import.meta.dirname, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const CI = readFileSync(join(ROOT, ".ci", "run"), "utf8");

/** The lines of the README's ```sh blocks, without their comments. */
function shellLines(text: string): string[] {
  const blocks = [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
  return blocks
    .flatMap((b) => b.split("\n"))
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l !== "");
}

/** Words of one line as a POSIX shell splits them; the README quotes only with '…'. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]) as string);
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const full = join(dir, n);
    return statSync(full).isDirectory() ? filesBelow(full) : [full];
  });
}

/** What each README command must exit with: check explains a refused hook write (deny). */
const EXPECTED_EXIT: Record<string, number> = { install: 0, status: 0, check: 3 };

describe("the README's commands", () => {
  const lines = shellLines(README);
  const machine = freshMachine();
  afterAll(() => rmSync(machine.root, { recursive: true, force: true }));

  it("finds the shell blocks (the check is not vacuous)", () => {
    expect(lines.filter((l) => l.startsWith("effectgate ")).length).toBeGreaterThanOrEqual(5);
    expect(lines.filter((l) => l.startsWith("npm ")).length).toBeGreaterThanOrEqual(3);
  });

  it("runs every effectgate line in order on a fresh machine, each with the exit it should have", () => {
    for (const line of lines.filter((l) => l.startsWith("effectgate "))) {
      const args = words(line).slice(1);
      const expected = EXPECTED_EXIT[args[0] as string];
      expect(expected, `no expected exit for: ${line}`).toBeDefined();
      const r = cli(machine, args);
      expect(r.status, `${line}\n${r.stdout}${r.stderr}`).toBe(expected);
    }
    // The last install rewrote the wrapped servers at enforce, as the README promises.
    const configs = [machine.home, machine.project].flatMap((d) => filesBelow(d));
    const atEnforce = configs.filter((f) => /"--level",\s*"enforce"/.test(readFileSync(f, "utf8")));
    expect(atEnforce.length).toBeGreaterThan(0);
  });

  it("every npm line is run by .ci/run, or by the package test (a global install from a clone)", () => {
    for (const line of lines.filter((l) => l.startsWith("npm ")))
      for (const command of line.split("&&").map((c) => c.trim()))
        if (command === "npm install -g .")
          expect(readFileSync(join(ROOT, "tests", "package", "fresh-install.test.ts"), "utf8")).toContain(
            '"install", "--global"',
          );
        else
          expect(CI, command).toMatch(new RegExp(`\n${command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[ \n]`));
  });
});
