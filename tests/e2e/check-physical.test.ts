import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, sandbox } from "./harness.js";

describe("check explains a link followed by ..", () => {
  it("prints the physical path the kernel would write and denies it", () => {
    const { home, env } = sandbox();
    mkdirSync(join(home, ".ssh", "sub"), { recursive: true });
    mkdirSync(join(home, "project"));
    symlinkSync(join(home, ".ssh", "sub"), join(home, "project", "deep"));
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        "check",
        "--cwd",
        join(home, "project"),
        "--tool",
        "write_file",
        "--args",
        '{"path":"deep/../authorized_keys","content":"x"}',
      ],
      { env, encoding: "utf8" },
    );
    expect(r.status).toBe(3);
    expect(r.stdout).toContain(`physical   ${join(home, ".ssh", "authorized_keys")}`);
    expect(r.stdout).toContain("paths.deny ~/.ssh/**");
  });
});
