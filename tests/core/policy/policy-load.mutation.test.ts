// Where loadPolicy puts each problem (the value's line, the key's line for a missing or empty
// value, file order on one line) and the hints it gives for unknown keys.
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { ConfigError } from "../../../src/core/errors.js";
import { globProblem } from "../../../src/core/policy/globs.js";
import { loadPolicy } from "../../../src/core/policy/load.js";
import { nearKey } from "../../../src/core/policy/near-key.js";

const LINUX: PlatformProfile = {
  platform: "linux",
  home: "/home/ada",
  env: { HOME: "/home/ada" },
  cwd: "/w",
};

/** The lines of the ConfigError the text raises. */
function problems(text: string): string[] {
  try {
    loadPolicy(text, "p.yaml", "0".repeat(64), LINUX);
  } catch (err) {
    if (err instanceof ConfigError) return err.message.split("\n");
    throw err;
  }
  throw new Error("expected the policy to be refused");
}

describe("problem lines", () => {
  it("reports a wrong value on the value's own line, not its key's", () => {
    expect(problems("version: 1\nmode:\n  - enforce\n")).toEqual([
      expect.stringMatching(/^p\.yaml:3: mode: expected one of observe, enforce, strict, got /),
    ]);
  });

  it("reports an empty value on the line of its key", () => {
    expect(problems("version: 1\npaths:\n  deny:\n")).toEqual([
      "p.yaml:3: paths.deny: expected a list of path patterns (quoted strings), got an empty value",
    ]);
  });

  it("reports a too-weak action_if_tainted on the line of its value", () => {
    const out = problems("version: 1\nexec:\n  action: deny\n  action_if_tainted:\n    allow\n");
    expect(out).toEqual([
      expect.stringMatching(/^p\.yaml:5: exec\.action_if_tainted: expected a verdict at least as strict/),
    ]);
  });

  it("reports a missing exec.action on the line of exec", () => {
    const out = problems('version: 1\n\nexec:\n  tools: ["bash"]\n');
    expect(out).toEqual([
      expect.stringMatching(/^p\.yaml:3: exec\.action: expected one of allow, confirm, deny/),
    ]);
  });

  it("orders problems by line, and keeps file order within one line", () => {
    const out = problems('version: 1\npaths: { deny: ["a/b"], confirm: ["c/d"] }\nmode: bogus\n');
    expect(out.map((l) => l.split(": expected")[0])).toEqual([
      "p.yaml:2: paths.deny[0]",
      "p.yaml:2: paths.confirm[0]",
      "p.yaml:3: mode",
    ]);
  });

  it("refuses a null key as not a plain key", () => {
    expect(problems("version: 1\n~: x\n")).toEqual([
      "p.yaml:2: (document): expected plain keys, got a complex or empty key",
    ]);
  });
});

describe("unknown-key hints", () => {
  const hint = (text: string) =>
    problems(text)[0]
      ?.replace(/^.*?\(did you mean /, "")
      .replace(/\?\), got an unknown key$/, "");

  it("prefers a close key of the same section to the same key elsewhere", () => {
    // `deny` is two edits from `env`, so the same-section guess wins over paths.deny/env.deny.
    expect(hint("version: 1\ndeny: []\n")).toBe("env");
  });

  it("names the section a known key belongs to when nothing here is close", () => {
    expect(hint("version: 1\ntools: []\n")).toBe("exec.tools (it belongs under exec:)");
  });

  it("does not send a section's key to the top level", () => {
    expect(problems("version: 1\npaths:\n  mode: enforce\n")).toEqual([
      "p.yaml:3: paths.mode: expected one of deny, deny_if_tainted, confirm, confirm_if_tainted, deny_read, got an unknown key",
    ]);
  });

  it("breaks a tie between two equally close keys by list order", () => {
    expect(nearKey("abc", ["abd", "abe"])).toBe("abd");
    expect(nearKey("abc", ["abe", "abd"])).toBe("abe");
  });

  it("gives no hint for a key known nowhere", () => {
    expect(problems("version: 1\nzzz: 1\n")).toEqual([
      "p.yaml:2: zzz: expected one of version, mode, paths, exec, taint, env, runs_later, egress, commands, ask, got an unknown key",
    ]);
  });
});

describe("glob limits", () => {
  it("refuses a glob longer than the matcher accepts (64 KiB)", () => {
    expect(globProblem("x*".repeat(40_000))).toBe("a well-formed glob");
    expect(globProblem("x*".repeat(1000))).toBeUndefined();
  });
});

describe("what each key expects, in words", () => {
  const first = (text: string) => problems(`version: 1\n${text}`)[0]?.replace(/^p\.yaml:\d+: /, "");
  it.each([
    [
      "paths: 5\n",
      "paths: expected a mapping with deny, deny_if_tainted, confirm, confirm_if_tainted, deny_read, got number 5",
    ],
    ["exec: 5\n", "exec: expected a mapping with tools, action, action_if_tainted, got number 5"],
    ["taint: 5\n", "taint: expected a mapping with sources, servers, exclude, signatures, got number 5"],
    ["env: 5\n", "env: expected a mapping with deny, got number 5"],
    ["paths:\n  confirm: [1]\n", "paths.confirm[0]: expected a path pattern string, got number 1"],
    ["paths:\n  deny_read: [1]\n", "paths.deny_read[0]: expected a path pattern string, got number 1"],
    [
      "exec:\n  tools: [1]\n  action: deny\n",
      "exec.tools[0]: expected a tool-name glob string, got number 1",
    ],
    [
      "taint:\n  sources: 1\n",
      "taint.sources: expected a list of tool-name globs (quoted strings), got number 1",
    ],
    ["taint:\n  sources: [1]\n", "taint.sources[0]: expected a tool-name glob string, got number 1"],
    [
      "taint:\n  servers: 1\n",
      "taint.servers: expected a list of server-name globs (quoted strings), got number 1",
    ],
    ["taint:\n  exclude: [1]\n", "taint.exclude[0]: expected a tool-name glob string, got number 1"],
    ["env:\n  deny: [1]\n", "env.deny[0]: expected a variable-name glob string, got number 1"],
  ])("%j", (text, line) => {
    expect(first(text)).toBe(line);
  });
});
