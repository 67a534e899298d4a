// Round-3 mutation tests for src/core/policy: the exec glob a decision cites, the hint for an
// unknown key, and where an empty value is reported (yaml gives `key:` an empty scalar, but a
// key with no value at all, `? key` or `{key}`, has no value node).
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { ConfigError } from "../../../src/core/errors.js";
import { loadPolicy } from "../../../src/core/policy/load.js";
import { readYamlTree } from "../../../src/core/policy/yaml-tree.js";

const LINUX: PlatformProfile = {
  platform: "linux",
  home: "/home/ada",
  env: { HOME: "/home/ada" },
  cwd: "/w",
};
const load = (text: string) => loadPolicy(text, "p.yaml", "0".repeat(64), LINUX);

function problems(text: string): string[] {
  try {
    load(text);
  } catch (err) {
    if (err instanceof ConfigError) return err.message.split("\n");
    throw err;
  }
  throw new Error("expected the policy to be refused");
}

describe("exec globs of a user policy", () => {
  it("names the glob that made a tool an exec tool, and none for other tools", () => {
    const p = load('version: 1\nexec:\n  tools: ["run_*", "bash"]\n  action: confirm\n');
    expect(p.execGlob("run_script")).toBe("run_*");
    expect(p.execGlob("bash")).toBe("bash");
    expect(p.execGlob("read_file")).toBeUndefined();
  });
});

describe("unknown keys", () => {
  it("gives no section hint for a key that belongs to no section", () => {
    const out = problems("version: 1\nqqqqqqqq: 1\n");
    expect(out).toHaveLength(1);
    expect(out[0]).toContain("qqqqqqqq");
    expect(out[0]).toContain("unknown key");
    expect(out[0]).not.toContain("did you mean");
    expect(out[0]).not.toContain("belongs under");
  });

  it("points a key written in the wrong section to its own section", () => {
    const out = problems("version: 1\ndeny_read: []\n");
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/paths\.deny_read/);
    expect(out[0]).toContain("belongs under paths");
  });
});

describe("empty values", () => {
  it("places an empty value on its key's line and reads it as null", () => {
    const tree = readYamlTree("version: 1\n\n\npaths:\n  deny:\n  confirm: []\n");
    expect(tree.problems).toEqual([]);
    expect(tree.value).toEqual({ version: 1, paths: { deny: null, confirm: [] } });
    expect(tree.lines.get("paths.deny")).toBe(5);
    expect(tree.lines.get("paths.confirm")).toBe(6);
    expect(problems("version: 1\n\n\nenv:\n  deny:\n")).toEqual([
      expect.stringMatching(/^p\.yaml:5: env\.deny: .*got an empty value/),
    ]);
  });

  it("reads an empty list item and an empty top-level value without failing", () => {
    const tree = readYamlTree("version: 1\nmode:\nenv:\n  deny:\n    -\n    - A\n");
    expect(tree.problems).toEqual([]);
    expect(tree.value).toEqual({ version: 1, mode: null, env: { deny: [null, "A"] } });
    expect(tree.lines.get("mode")).toBe(2);
  });

  it("places a key with no value node (`? key`, `{key}`) on the key's line", () => {
    const tree = readYamlTree("version: 1\n\npaths:\n  ? deny\n  confirm: {x}\n");
    expect(tree.problems).toEqual([]);
    expect(tree.value).toEqual({ version: 1, paths: { deny: null, confirm: { x: null } } });
    expect(tree.lines.get("paths.deny")).toBe(4);
    expect(tree.lines.get("paths.confirm.x")).toBe(5);
    expect(tree.lines.get("(document)")).toBe(1);
    expect(problems("version: 1\n\n\nenv:\n  ? deny\n")).toEqual([
      expect.stringMatching(/^p\.yaml:5: env\.deny: .*got an empty value/),
    ]);
  });
});
