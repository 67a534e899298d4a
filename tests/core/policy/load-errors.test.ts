import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { loadPolicy } from "../../../src/core/policy/load.js";
import { LINUX, WIN32, problemsOf, useTempHome } from "../../helpers/policy.js";

useTempHome();
const lines = (...l: string[]) => `${l.join("\n")}\n`;
const FORMS =
  "(allowed forms: an anchored folder ending in /** (~/.ssh/**), an anchored file without wildcards (~/.bashrc), or **/NAME, **/a/b, **/a/b/** with * ? […] inside one segment)";

describe("loader problems: one line each, file:line: key: expected X, got Y", () => {
  it("names a misspelt key and suggests the near one", () => {
    const text = lines("version: 1", "paths:", "  deny: []", "  confirm_if_tained:", '    - "**/Makefile"');
    expect(problemsOf(text)).toEqual([
      "team.yaml:4: paths.confirm_if_tained: expected one of deny, deny_if_tainted, confirm, confirm_if_tainted, deny_read (did you mean confirm_if_tainted?), got an unknown key",
    ]);
  });

  it("points a right key in the wrong section to where it belongs", () => {
    expect(problemsOf(lines("version: 1", "deny_read: []"))).toEqual([
      "team.yaml:2: deny_read: expected one of version, mode, paths, exec, taint, env, runs_later, egress, commands, ask (did you mean paths.deny_read (it belongs under paths:)?), got an unknown key",
    ]);
  });

  it("suggests nothing for a key that resembles nothing", () => {
    expect(problemsOf(lines("version: 1", "exec:", "  frobnicate: true"))).toEqual([
      "team.yaml:3: exec.frobnicate: expected one of tools, action, action_if_tainted, got an unknown key",
    ]);
  });

  it("accepts one spelling per level: no synonyms", () => {
    for (const word of ["off", "Enforce", "deny", "true", "all"]) {
      expect(problemsOf(lines("version: 1", `mode: ${word}`))).toEqual([
        `team.yaml:2: mode: expected one of observe, enforce, strict, got ${word === "true" ? "boolean true" : JSON.stringify(word)}`,
      ]);
    }
  });

  it("requires version 1, as a number", () => {
    expect(problemsOf(lines("version: 2"))).toEqual(["team.yaml:1: version: expected 1, got number 2"]);
    expect(problemsOf(lines('version: "1"'))).toEqual(['team.yaml:1: version: expected 1, got "1"']);
    // A missing key is reported where the mapping that lacks it starts.
    expect(problemsOf(lines("# team policy", "mode: enforce"))).toEqual([
      "team.yaml:2: version: expected 1, got nothing",
    ]);
  });

  it("refuses an empty document and a comment-only one", () => {
    const empty = "team.yaml:1: (document): expected a mapping with version: 1, got an empty document";
    expect(problemsOf("")).toEqual([empty]);
    expect(problemsOf(lines("# only a comment", ""))).toEqual([empty]);
    expect(problemsOf(lines("- version: 1"))).toEqual([
      "team.yaml:1: (document): expected a mapping with version: 1, got a list",
    ]);
  });

  it("reports wrong types with the value's line", () => {
    const text = lines(
      "version: 1",
      "paths:",
      '  confirm: "**/x"',
      "taint:",
      "  signatures: yes",
      "env:",
      "  deny:",
    );
    expect(problemsOf(text)).toEqual([
      'team.yaml:3: paths.confirm: expected a list of path patterns (quoted strings), got "**/x"',
      'team.yaml:5: taint.signatures: expected true or false, got "yes"',
      "team.yaml:7: env.deny: expected a list of environment-variable name globs, got an empty value",
    ]);
  });

  it("reports bad verdict words", () => {
    const text = lines("version: 1", "exec:", '  tools: ["bash"]', "  action: block");
    expect(problemsOf(text)).toEqual([
      'team.yaml:4: exec.action: expected one of allow, confirm, deny, got "block"',
    ]);
  });

  it("reports an unquoted glob (a YAML alias) at its line", () => {
    const text = lines("version: 1", "paths:", "  deny:", '    - "~/.ssh/**"', "    - **/.env");
    expect(problemsOf(text)).toEqual([
      "team.yaml:5: paths.deny[1]: expected a value written out (YAML aliases are not allowed; quote globs that start with *), got alias **/.env",
    ]);
  });

  it("reports duplicate keys with both lines", () => {
    const text = lines("version: 1", "paths:", '  deny: ["~/.ssh/**"]', '  deny: ["~/.aws/**"]');
    expect(problemsOf(text)).toEqual([
      "team.yaml:4: paths.deny: expected each key once (first on line 3), got a duplicate key",
    ]);
  });

  it("reports YAML syntax errors with their line", () => {
    expect(problemsOf(lines("version: 1", "paths:", '  deny: ["~/.ssh/**"', "mode: observe"))).toEqual([
      "team.yaml:4: (document): expected valid YAML, got BAD_INDENT: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ]);
    expect(problemsOf(lines("version: 1", "\tmode: observe"))).toEqual([
      "team.yaml:2: (document): expected valid YAML, got TAB_AS_INDENT: Tabs are not allowed as indentation",
    ]);
    expect(problemsOf(lines("version: 1", "---", "version: 1"))).toEqual([
      "team.yaml:2: (document): expected one YAML document, got 2",
    ]);
  });

  it("reads yes and no as words under a %YAML 1.1 directive too", () => {
    const text = lines("%YAML 1.1", "---", "version: 1", "taint:", "  signatures: no", "mode: observe");
    expect(problemsOf(text)).toEqual(['team.yaml:5: taint.signatures: expected true or false, got "no"']);
  });

  it("reports invalid patterns with the compiler's expectation, at the item's line", () => {
    const text = lines(
      "version: 1",
      "paths:",
      "  confirm_if_tainted:",
      '    - "**/Makefile"',
      '    - "**/*.sh"',
      "    - 12",
      '    - "**"',
      '    - "scripts/build.sh"',
    );
    expect(problemsOf(text)).toEqual([
      "team.yaml:6: paths.confirm_if_tainted[2]: expected a path pattern string, got number 12",
      `team.yaml:7: paths.confirm_if_tainted[3]: expected a pattern that does not match every path ${FORMS}, got "**"`,
      `team.yaml:8: paths.confirm_if_tainted[4]: expected an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere ${FORMS}, got "scripts/build.sh"`,
    ]);
  });

  it("judges patterns on the profile it is given", () => {
    const text = lines("version: 1", "paths:", '  deny: ["/etc/crontab"]');
    expect(() => loadPolicy(text, "team.yaml", "x", LINUX)).not.toThrow();
    expect(problemsOf(text, WIN32)[0]).toMatch(
      /^team\.yaml:3: paths\.deny\[0\]: expected an absolute anchor .* got "\/etc\/crontab"$/,
    );
  });

  it("reports bad globs", () => {
    const text = lines(
      "version: 1",
      "exec:",
      '  tools: ["*exec*", "!fetch", "", " bash"]',
      "  action: confirm",
    );
    expect(problemsOf(text)).toEqual([
      'team.yaml:3: exec.tools[1]: expected a glob without a leading ! (negation is not supported: list what to match), got "!fetch"',
      'team.yaml:3: exec.tools[2]: expected a non-empty glob, got ""',
      'team.yaml:3: exec.tools[3]: expected a glob without leading or trailing spaces, got " bash"',
    ]);
  });

  it("has no silent default for what exec tools get", () => {
    expect(problemsOf(lines("version: 1", "exec:", '  tools: ["bash"]'))).toEqual([
      "team.yaml:2: exec.action: expected one of allow, confirm, deny (required when exec.tools lists tools), got nothing",
    ]);
    expect(problemsOf(lines("version: 1", "exec:", "  action: deny", "  action_if_tainted: allow"))).toEqual([
      "team.yaml:4: exec.action_if_tainted: expected a verdict at least as strict as exec.action (deny), got allow",
    ]);
  });

  it("reports every problem at once, in line order", () => {
    const text = lines(
      "version: 3",
      "mode: off",
      "paths:",
      '  deny: ["relative"]',
      "  denyread: []",
      "exec:",
      '  tools: ["bash"]',
      "taint:",
      "  sources: [1]",
      "mode: strict",
    );
    const got = problemsOf(text);
    expect(got.map((l) => l.split(": ")[0])).toEqual([
      "team.yaml:1",
      "team.yaml:2",
      "team.yaml:4",
      "team.yaml:5",
      "team.yaml:6",
      "team.yaml:9",
      "team.yaml:10",
    ]);
    expect(got[4]).toBe(
      "team.yaml:6: exec.action: expected one of allow, confirm, deny (required when exec.tools lists tools), got nothing",
    );
    expect(got[6]).toBe("team.yaml:10: mode: expected each key once (first on line 2), got a duplicate key");
  });

  it("throws a ConfigError whose problems carry file, line, key, expected and got", () => {
    try {
      loadPolicy(lines("version: 1", "mode: loud"), "/etc/team.yaml", "x", LINUX);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([
        {
          file: "/etc/team.yaml",
          line: 2,
          key: "mode",
          expected: "one of observe, enforce, strict",
          got: '"loud"',
        },
      ]);
    }
  });

  it("says what ask.dialog takes", () => {
    expect(problemsOf(lines("version: 1", "ask:", "  dialog: always"))).toEqual([
      'team.yaml:3: ask.dialog: expected one of auto, off, got "always"',
    ]);
  });

  it("does not let a key named __proto__ reach the object model", () => {
    expect(problemsOf(lines("version: 1", "__proto__:", "  mode: strict"))).toEqual([
      "team.yaml:2: __proto__: expected one of version, mode, paths, exec, taint, env, runs_later, egress, commands, ask, got an unknown key",
    ]);
  });
});
