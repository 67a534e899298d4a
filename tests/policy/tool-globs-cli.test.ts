// Tool globs through the built CLI: a malformed glob stops `check` with exit 78, and a negated
// class decides what the docs say (the in-process reading is in tool-globs.test.ts).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MALFORMED_GLOBS, useTempHome } from "../helpers/policy.js";

const home = useTempHome();
const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");

describe("tool globs through the CLI", () => {
  it("a malformed glob stops check with exit 78, naming the line", () => {
    const text = MALFORMED_GLOBS;
    const file = join(home.dir(), "globs.yaml");
    writeFileSync(file, text);
    const r = spawnSync(
      process.execPath,
      [MAIN, "check", "--policy", file, "--tool", "bash", "--home", home.dir()],
      { encoding: "utf8", env: { ...process.env, HOME: home.dir() } },
    );
    expect(r.status).toBe(78);
    expect(r.stderr).toContain(`${file}:3: exec.tools[1]: expected a glob with every { closed by }, got "{sh,zsh"`);
  });

  it("a negated class in exec.tools catches the tools it says", () => {
    const file = join(home.dir(), "neg.yaml");
    writeFileSync(file, 'version: 1\nexec:\n  tools: ["[!z]ash"]\n  action: deny\n');
    const run = (tool: string) =>
      spawnSync(process.execPath, [MAIN, "check", "--policy", file, "--tool", tool, "--home", home.dir()], {
        encoding: "utf8",
        env: { ...process.env, HOME: home.dir() },
      }).status;
    expect(run("bash")).toBe(3);
    expect(run("zash")).toBe(0);
  });
});
