// One policy serves Linux, macOS and Windows (docs/policy.md): a pattern anchored the Windows way
// loads everywhere, is inert (and listed as such) off Windows, and is judged on Windows' rules
// wherever it is loaded, so a mistake in it is not hidden on the author's Linux machine.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DARWIN, LINUX, load, problemsOf, useTempHome, WIN32 } from "../helpers/policy.js";

const home = useTempHome();
const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");
const WINDOWS = [
  "%APPDATA%\\Claude\\**",
  "%APPDATA%/Claude/**",
  "C:\\Users\\x\\**",
  "c:/Users/x/.ssh/config",
  "\\\\server\\share\\x\\**",
  "$env:APPDATA\\Claude\\**",
];
const policyOf = (patterns: readonly string[]) =>
  `version: 1\npaths:\n  deny:\n${patterns.map((p) => `    - ${JSON.stringify(p)}\n`).join("")}`;

describe("Windows-anchored patterns", () => {
  it.each([LINUX, DARWIN])("load on $platform as inert, each with its reason", (profile) => {
    const policy = load(policyOf(WINDOWS), profile);
    expect(policy.inert.map((p) => p.text)).toEqual(WINDOWS);
    expect(policy.inert[0]?.why).toBe(`a Windows path starting %APPDATA%: names nothing on ${profile.platform}`);
    expect(policy.inert[5]?.why).toContain("starting $env:APPDATA:");
    expect(policy.matchPath("deny", "/home/ada/x")).toBeUndefined();
  });

  it("are live on win32", () => {
    const policy = load(policyOf(WINDOWS.slice(2, 3)), WIN32);
    expect(policy.inert).toEqual([]);
    expect(policy.matchPath("deny", "C:\\Users\\x\\a.txt")).toBe("C:\\Users\\x\\**");
  });

  it("are refused on every platform when Windows would refuse them", () => {
    const text = policyOf(["C:\\Users\\x\\*.txt", "%APPDATA%\\a\\**\\b"]);
    const lines = problemsOf(text, WIN32);
    expect(lines).toHaveLength(2);
    expect(problemsOf(text, LINUX)).toEqual(lines);
    expect(problemsOf(text, DARWIN)).toEqual(lines);
    expect(lines[0]).toMatch(/^team\.yaml:4: paths\.deny\[0\]: expected an anchored path without wildcards/);
  });

  it("the shipped example in docs/policy.md runs through check on linux", () => {
    const file = join(home.dir(), "shared.yaml");
    writeFileSync(file, policyOf(["%APPDATA%\\Claude\\**", "~/.ssh/**"]));
    const r = spawnSync(
      process.execPath,
      [MAIN, "check", "--policy", file, "--platform", "linux", "--cwd", home.dir(), "--tool", "write_file", "--args", '{"path":"n.md"}'],
      { encoding: "utf8", env: { ...process.env, HOME: home.dir() } },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "inert on linux: paths.deny %APPDATA%\\Claude\\** (a Windows path starting %APPDATA%: names nothing on linux)",
    );
  });
});
