import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_POLICY } from "../../helpers/judge.js";

// Runs the built CLI (`npm test` builds first; by hand: npx tsc -p tsconfig.build.json).
const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const home = mkdtempSync(join(tmpdir(), "eg-check-home-"));
const policy = join(home, "policy.yaml");
writeFileSync(policy, TEST_POLICY);

function check(...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, "check", "--policy", policy, ...args], {
    encoding: "utf8",
    env: { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") },
    cwd: home,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("effectgate check", () => {
  it("exits 3 for deny and prints spelled and canonical path, rule and outcomes", () => {
    const r = check("--home", home, "--tool", "write_file", "--args", '{"path":"~/.ssh/authorized_keys"}');
    expect(r.code).toBe(3);
    expect(r.out).toContain('spelled    "~/.ssh/authorized_keys"');
    expect(r.out).toContain(`canonical  ${join(home, ".ssh", "authorized_keys")}`);
    expect(r.out).toContain("rule: paths.deny ~/.ssh/**");
    expect(r.out).toContain("observe forward, enforce refuse, strict refuse");
  });

  it("exits 1 for confirm and 0 for allow", () => {
    expect(check("--tool", "write_file", "--args", '{"path":"package.json"}').code).toBe(1);
    expect(check("--tool", "write_file", "--args", '{"path":"notes.md"}').code).toBe(0);
    expect(check("--tool", "read_text_file", "--args", '{"path":"package.json"}').code).toBe(0);
  });

  it("--tainted makes a confirm_if_tainted write confirm and exec deny", () => {
    expect(check("--tool", "write_file", "--args", '{"path":"Makefile"}').code).toBe(0);
    expect(check("--tainted", "--tool", "write_file", "--args", '{"path":"Makefile"}').code).toBe(1);
    expect(check("--tool", "bash", "--args", '{"command":"ls"}').code).toBe(1);
    expect(check("--tainted", "--tool", "bash", "--args", '{"command":"ls"}').code).toBe(3);
  });

  it("judges another platform on a synthetic machine", () => {
    const r = check(
      "--platform",
      "win32",
      "--tool",
      "write_file",
      "--args",
      JSON.stringify({ path: "C:\\USERS\\USER\\.SSH\\config" }),
    );
    expect(r.code).toBe(3);
    expect(r.out).toContain("home C:\\Users\\user");
    expect(
      check("--platform", "darwin", "--tool", "write_file", "--args", '{"path":"/Users/user/.SSH/config"}')
        .code,
    ).toBe(3);
  });

  it("refuses duplicate keys as the relay would, and rejects bad JSON as usage", () => {
    const dup = check("--tool", "write_file", "--args", '{"path":"a","path":"~/.ssh/x"}');
    expect(dup.code).toBe(3);
    expect(dup.out).toContain("cannot be judged");
    const bad = check("--tool", "write_file", "--args", "{path:");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--args");
    expect(check("--tool", "x", "--args", "[1]").code).toBe(2);
    expect(check("--args", "{}").code).toBe(2);
    expect(check("--tool", "x", "--level", "loud").code).toBe(2);
  });

  // check reads the call as the relay reads its frame (src/core/wire/client-frame.ts): a member
  // in another case is a second spelling a Go server reads, so the relay refuses it.
  it("refuses a case-folded member of params as the relay would", () => {
    const folded = check(
      "--method",
      "resources/read",
      "--args",
      '{"uri":"file:///tmp/a","URI":"file:///tmp/b"}',
    );
    expect(folded.code).toBe(3);
    expect(folded.out).toContain('member params."URI" is "uri" in another case');
    expect(check("--method", "resources/read", "--args", '{"uri":"file:///tmp/a"}').out).not.toContain(
      "another case",
    );
  });

  it("exits 78 for a policy that does not load", () => {
    const broken = join(home, "broken.yaml");
    writeFileSync(broken, "version: 1\npaths:\n  denny: []\n");
    const r = spawnSync(process.execPath, [MAIN, "check", "--policy", broken, "--tool", "x"], {
      encoding: "utf8",
      env: { ...process.env, HOME: home },
    });
    expect(r.status).toBe(78);
  });

  it("uses the built-in default policy without --policy", () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [MAIN, "check", ...args], {
        encoding: "utf8",
        env: { ...process.env, HOME: home },
        cwd: home,
      });
    const deny = run("--tool", "write_file", "--args", '{"path":"~/.bashrc"}');
    expect(deny.status).toBe(3);
    expect(deny.stdout).toContain("policy default");
    expect(run("--tool", "write_file", "--args", '{"path":"CLAUDE.md"}').status).toBe(1);
    expect(run("--tool", "read_text_file", "--args", '{"path":"package.json"}').status).toBe(0);
    expect(run("--method", "resources/read", "--args", '{"uri":"file:///etc/hostname"}').status).toBe(0);
    expect(run("--help").status).toBe(0);
  });
});
