// What install and friends check before they touch anything: the policy, --project, usage text.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, FIXTURES, fixtureFiles, freshMachine } from "../../clients/helpers.js";
import { CLIENTS } from "../../../src/clients/registry/index.js";

describe("install --policy", () => {
  it("stops with exit 78 and the loader's problems before writing, for a missing or broken policy", () => {
    const m = freshMachine();
    const missing = cli(m, ["install", "--policy", "./nope.yaml", "--project", m.project]);
    expect(missing.status).toBe(78);
    expect(missing.stderr).toContain(
      "nope.yaml: --policy: expected a readable policy file, got no such file (ENOENT)",
    );
    const broken = join(m.root, "broken.yaml");
    writeFileSync(broken, "version: 1\nmode: enforce\nbogus_key: 1\n");
    const bad = cli(m, ["install", "--policy", broken, "--project", m.project]);
    expect(bad.status).toBe(78);
    expect(bad.stderr).toMatch(/broken\.yaml:3: bogus_key: /);
    expect(bad.stdout).toBe("");
    for (const rel of fixtureFiles())
      expect(readFileSync(join(m.root, rel))).toEqual(readFileSync(join(FIXTURES, rel)));
  });

  it("writes a policy that loads", () => {
    const m = freshMachine();
    const r = cli(m, ["install", "--dry-run", "--client", "cursor", "--policy", "default"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("--policy default --name time --");
  });
});

describe("options", () => {
  it("refuses a --project folder that does not exist, with exit 2", () => {
    const m = freshMachine(false);
    for (const cmd of ["install", "uninstall", "verify"]) {
      const r = cli(m, [cmd, "--project", join(m.root, "nonexistent")]);
      expect(r.status, cmd).toBe(2);
      expect(r.stderr).toContain(`effectgate ${cmd}: --project: expected an existing folder, got`);
    }
  });

  it("shows in the help how several clients are named, and every client's name", () => {
    const m = freshMachine(false);
    for (const cmd of ["install", "uninstall"]) {
      const help = cli(m, [cmd, "--help"]).stdout.replace(/\s+/g, " ");
      expect(help).toContain("--client <names> only these clients, comma-separated or repeated:");
      for (const c of CLIENTS) expect(help, `${cmd} --help names ${c.name}`).toContain(` ${c.name}`);
    }
  });
});
