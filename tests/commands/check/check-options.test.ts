// `effectgate check` refuses words it cannot use (exit 2) before it loads the policy, so that a
// bad --home is not blamed on the policy's `~/…` patterns one line each.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const home = mkdtempSync(join(tmpdir(), "eg-check-opts-"));

function check(...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, "check", ...args], {
    encoding: "utf8",
    env: { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") },
    cwd: home,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("check --home", () => {
  it.each([
    ["linux", "relative"],
    ["linux", "C:\\Users\\bob"],
    ["darwin", "~/x"],
    ["win32", "/Users/bob"],
    ["win32", "Users\\bob"],
  ])("on %s refuses %j with one line and exit 2", (platform, dir) => {
    const r = check("--platform", platform, "--home", dir, "--tool", "write_file");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `effectgate check: --home: expected an absolute path (for ${platform}), got ${JSON.stringify(dir)}\n`,
    );
  });

  it.each([
    ["linux", "/home/bob"],
    ["darwin", "/Users/bob"],
    ["win32", "C:\\Users\\bob"],
    ["win32", "D:/Users/bob"],
    ["win32", "\\\\server\\share\\bob"],
  ])("on %s accepts %j", (platform, dir) => {
    const r = check(
      "--platform",
      platform,
      "--home",
      dir,
      "--tool",
      "write_file",
      "--args",
      '{"path":"~/.ssh/k"}',
    );
    expect(r.code, r.err).toBe(3);
    expect(r.out).toContain(`home ${dir}`);
  });
});

describe("check --tool and --method", () => {
  it("refuses an empty tool name or home, as every option refuses an empty value", () => {
    const r = check("--tool", "");
    expect(r.code).toBe(2);
    expect(r.err).toBe("effectgate check: --tool: expected a value, got an empty one\n");
    for (const platform of ["linux", "win32"]) {
      const home = check("--platform", platform, "--home", "", "--tool", "write_file");
      expect(home.code).toBe(2);
      expect(home.err).toBe("effectgate check: --home: expected a value, got an empty one\n");
    }
  });

  it("asks for a tool when the method needs one", () => {
    const r = check("--args", "{}");
    expect(r.code).toBe(2);
    expect(r.err).toBe("effectgate check: --tool: expected a tool name, got none\n");
  });

  it("names a resources/read without a uri once", () => {
    const r = check("--method", "resources/read");
    expect(r.out.split("\n")[0]).toBe("resources/read");
    expect(r.out).toContain("resources/read needs a string uri");
    expect(
      check("--method", "resources/read", "--args", '{"uri":"file:///etc/hosts"}').out.split("\n")[0],
    ).toBe("resources/read file:///etc/hosts");
  });
});
