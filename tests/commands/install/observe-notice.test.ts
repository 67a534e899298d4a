// Install keeps observe as its default level, and says at once what that does and how to enforce.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, freshMachine, type Machine } from "../../clients/helpers.js";

const OBSERVE =
  "level observe: every call is relayed and logged, none is refused; the log says what enforce would refuse";
const ENFORCE =
  /^to enforce: see what it would have refused with effectgate status, then run effectgate install --level enforce$/m;

const machines: Machine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) rmSync(m.root, { recursive: true, force: true });
});
function machine(): Machine {
  const m = freshMachine();
  machines.push(m);
  return m;
}

describe("install says what the level it installs does", () => {
  it("without --level: wraps at observe (no --level written) and says what observe does, then how to enforce", () => {
    const m = machine();
    const r = cli(m, ["install", "--client", "cursor", "--project", m.project]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`\n${OBSERVE}\n`);
    expect(r.stdout).toMatch(ENFORCE);
    expect(r.stdout).not.toMatch(/-> .*--level/);
  });

  it("says nothing of the kind at --level enforce, or when the policy's mode is enforce", () => {
    const m = machine();
    const r = cli(m, ["install", "--client", "cursor", "--level", "enforce", "--project", m.project]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("--level enforce");
    expect(r.stdout).not.toContain(OBSERVE);

    const n = machine();
    const policy = join(n.root, "team.yaml");
    writeFileSync(policy, "version: 1\nmode: enforce\n");
    const p = cli(n, ["install", "--client", "cursor", "--policy", policy, "--project", n.project]);
    expect(p.status, p.stdout + p.stderr).toBe(0);
    expect(p.stdout).not.toContain(OBSERVE);
  });

  it("says nothing when nothing new was wrapped (a second install, a dry run)", () => {
    const m = machine();
    expect(
      cli(m, ["install", "--client", "cursor", "--dry-run", "--project", m.project]).stdout,
    ).not.toContain(OBSERVE);
    cli(m, ["install", "--client", "cursor", "--project", m.project]);
    expect(cli(m, ["install", "--client", "cursor", "--project", m.project]).stdout).not.toContain(OBSERVE);
  });
});
