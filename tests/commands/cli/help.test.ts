// Help as users see it, from the built CLI: one golden file per command, compared exactly
// (UPDATE_GOLDEN=1 rewrites them; review the diff), and the ways to ask for it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../../src/commands/cli/commands.js";
import type { CommandDeclaration } from "../../../src/commands/cli/declaration.js";
import { command as relay } from "../../../src/commands/relay.js";
import { VERSION } from "../../../src/version.js";

const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const GOLDEN = join(import.meta.dirname, "golden");
const home = mkdtempSync(join(tmpdir(), "eg-cli-help-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { ...process.env, HOME: home, USERPROFILE: home, EFFECTGATE_HOME: join(home, ".effectgate") };
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", env, cwd: home });

function golden(name: string, got: string): string {
  const file = join(GOLDEN, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, got);
  return readFileSync(file, "utf8");
}

describe("help of each command", () => {
  it.each(COMMANDS.map((c) => c.name))("%s: --help, -h and help <command> print the golden text", (name) => {
    const r = cli(name, "--help");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(golden(name, r.stdout));
    expect(cli(name, "-h").stdout).toBe(r.stdout);
    const viaHelp = cli("help", name);
    expect(viaHelp.status).toBe(0);
    expect(viaHelp.stdout).toBe(r.stdout);
  });

  it("effectgate --help, -h and help print the overview to stdout and exit 0", () => {
    const r = cli("--help");
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(golden("effectgate", r.stdout));
    for (const words of [["-h"], ["help"], ["help", "--help"], ["--level", "enforce", "--help"]])
      expect(cli(...words).stdout, words.join(" ")).toBe(r.stdout);
  });

  it("bare effectgate prints the overview to stderr, nothing to stdout, and exits 2", () => {
    const r = cli();
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(readFileSync(join(GOLDEN, "effectgate.txt"), "utf8"));
  });

  it("install, uninstall and verify name every client the registry knows", async () => {
    const { CLIENTS } = await import("../../../src/clients/registry/index.js");
    for (const name of ["install", "uninstall", "verify"]) {
      const text = readFileSync(join(GOLDEN, `${name}.txt`), "utf8").replace(/\s+/g, " ");
      for (const c of CLIENTS)
        expect(text, `${name} names ${c.name}`).toMatch(new RegExp(`[ :]${c.name}[,. ]`));
    }
  });
});

/** What a declaration lacks for its help to say what every option means and defaults to. */
function declarationProblems(name: string, decl: CommandDeclaration): string[] {
  const out: string[] = [];
  for (const o of decl.options) {
    if (o.meaning.trim() === "") out.push(`${name} ${o.flags}: no meaning`);
    if (o.default.trim() === "") out.push(`${name} ${o.flags}: no default`);
  }
  for (const a of decl.operands ?? []) {
    if (a.meaning.trim() === "" || a.default.trim() === "")
      out.push(`${name} ${a.name}: no meaning or default`);
  }
  if (decl.description.trim() === "") out.push(`${name}: no description`);
  if (decl.examples.length < 1 || decl.examples.length > 3)
    out.push(`${name}: ${decl.examples.length} examples`);
  for (const e of decl.examples) {
    if (!e.command.startsWith("effectgate "))
      out.push(`${name}: example "${e.command}" is not a command line`);
    if (e.says.trim() === "") out.push(`${name}: example "${e.command}" says nothing`);
  }
  return out;
}

describe("declarations", () => {
  it("give every option a meaning and a default, and each command 1 to 3 examples", async () => {
    const all: [string, CommandDeclaration][] = [["effectgate", relay]];
    for (const c of COMMANDS) all.push([c.name, (await c.load()).command]);
    expect(all.length).toBe(COMMANDS.length + 1);
    expect(all.flatMap(([name, decl]) => declarationProblems(name, decl))).toEqual([]);
  });

  it("the check finds an option without a meaning or a default (it is not vacuous)", () => {
    const planted: CommandDeclaration = {
      description: "x",
      options: [{ flags: "--quiet", meaning: "", default: " " }],
      examples: [],
      run: async () => 0,
    };
    expect(declarationProblems("p", planted)).toEqual([
      "p --quiet: no meaning",
      "p --quiet: no default",
      "p: 0 examples",
    ]);
  });
});

describe("version", () => {
  it("-V, --version and version print the same line", () => {
    const line = `effectgate ${VERSION} node ${process.version} ${process.platform}/${process.arch}\n`;
    for (const word of ["-V", "--version", "version"]) {
      const r = cli(word);
      expect([r.status, r.stdout, r.stderr], word).toEqual([0, line, ""]);
    }
  });
});

describe("mistyped words", () => {
  it.each([
    [["chekc"], "(did you mean check?)"],
    [["instal", "--dry-run"], "(did you mean install?)"],
    [["help", "replya"], "(did you mean replay?)"],
    [["check", "--tol", "x"], "(did you mean --tool?)"],
    [["replay", "--jsn"], "(did you mean --json?)"],
    [["--levle", "enforce", "--", "x"], "(did you mean --level?)"],
  ])("%j is a usage error that suggests the near word", (words, hint) => {
    const r = cli(...words);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(r.stderr).toContain(hint);
  });

  it("a word near nothing gets no suggestion, and the way to relay it", () => {
    const r = cli("npx", "server");
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `effectgate: unknown command "npx"; expected one of ${COMMANDS.map((c) => c.name).join(", ")}; to relay a server put it after --: effectgate -- npx ...\n`,
    );
  });
});
