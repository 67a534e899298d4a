import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, sandbox } from "./harness.js";

describe("check names the patterns that match nothing on the chosen platform", () => {
  const policyText = 'version: 1\npaths:\n  deny:\n    - "%APPDATA%/Claude/**"\n    - "~/.ssh/**"\n';
  const run = (platform: string) => {
    const { home, env } = sandbox();
    const policy = join(home, "shared-policy.yaml");
    writeFileSync(policy, policyText);
    const args = [
      CLI,
      "check",
      "--policy",
      policy,
      "--platform",
      platform,
      "--tool",
      "write_file",
      "--args",
      '{"path":"notes.md"}',
    ];
    return spawnSync(process.execPath, args, { env, encoding: "utf8" });
  };

  it("a %APPDATA% anchor is inert on linux, and said so", () => {
    const r = run("linux");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^inert on linux: paths\.deny %APPDATA%\/Claude\/\*\* \(.*APPDATA.*\)$/m);
  });

  it("the same anchor is live on win32, so nothing is listed", () => {
    const r = run("win32");
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("inert on");
  });
});
