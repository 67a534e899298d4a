import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { loadPolicy } from "../../../src/core/policy/load.js";

// Random YAML never crashes the loader: it yields a policy or a ConfigError naming problems.

const profile: PlatformProfile = {
  platform: "linux",
  home: "/home/u",
  env: { HOME: "/home/u" },
  cwd: "/home/u/p",
};
const KEYS = [
  "version",
  "mode",
  "paths",
  "deny",
  "deny_if_tainted",
  "confirm",
  "confirm_if_tainted",
  "deny_read",
  "exec",
  "tools",
  "action",
  "action_if_tainted",
  "taint",
  "sources",
  "servers",
  "exclude",
  "signatures",
  "env",
  "denyy",
  "Paths",
];
const leaf = fc.oneof(
  fc.constantFrom(
    "~/.ssh/**",
    "**/.env",
    "**",
    "",
    "*",
    "enforce",
    "observe",
    "deny",
    "allow",
    1,
    2,
    true,
    null,
    "~user/x",
    "**/a/**/b",
    "/etc/**",
    "$HOME/.aws/**",
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
);
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 5 }),
  ),
})).node;
const policyish = fc
  .record({ version: fc.oneof(fc.constant(1), leaf) }, { requiredKeys: [] })
  .chain((base) =>
    fc.dictionary(fc.constantFrom(...KEYS), tree, { maxKeys: 6 }).map((rest) => ({ ...base, ...rest })),
  );

function loadsOrExplains(text: string): void {
  try {
    loadPolicy(text, "fuzz.yaml", "0".repeat(64), profile);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p.file).toBe("fuzz.yaml");
  }
}

describe("policy loader under random input", () => {
  it("structured random documents give a policy or ConfigError problems", () => {
    fc.assert(fc.property(policyish, (doc) => loadsOrExplains(stringify(doc))));
  });

  it("arbitrary text gives a policy or ConfigError problems", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => loadsOrExplains(text)));
  });

  it("mangled copies of a valid policy give a policy or ConfigError problems", () => {
    const valid =
      "version: 1\nmode: enforce\npaths:\n  deny:\n    - ~/.ssh/**\n    - '**/.env'\nexec:\n  tools: ['*shell*']\n  action: confirm\n  action_if_tainted: deny\n";
    fc.assert(
      fc.property(fc.nat(valid.length), fc.nat(valid.length), fc.string({ maxLength: 6 }), (a, b, insert) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        loadsOrExplains(valid.slice(0, from) + insert + valid.slice(to));
      }),
    );
  });
});
