// `paths.deny_if_tainted` in the policy file: compiled like the other path lists, with the
// loader's "expected X, got Y" lines for a mistake in it (decision 0143).
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../../src/core/policy/load.js";
import { LINUX, WIN32, problemsOf, useTempHome } from "../../helpers/policy.js";

useTempHome();
const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("paths.deny_if_tainted in the policy file", () => {
  it("compiles its patterns on each profile, apart from the other lists", () => {
    const text = lines("version: 1", "paths:", "  deny_if_tainted:", '    - "**/.env"', '    - "~/.config/app/**"');
    const linux = loadPolicy(text, "team.yaml", "0".repeat(64), LINUX);
    expect(linux.matchPath("deny_if_tainted", "/home/ada/proj/.env")).toBe("**/.env");
    expect(linux.matchPath("deny_if_tainted", "/home/ada/.config/app/x")).toBe("~/.config/app/**");
    expect(linux.matchPath("deny", "/home/ada/proj/.env")).toBeUndefined();
    expect(linux.matchPath("confirm", "/home/ada/proj/.env")).toBeUndefined();
    const win = loadPolicy(text, "team.yaml", "0".repeat(64), WIN32);
    expect(win.matchPath("deny_if_tainted", "C:\\Users\\ada\\proj\\.ENV")).toBe("**/.env");
  });

  it("suggests the key for a misspelling", () => {
    expect(problemsOf(lines("version: 1", "paths:", "  deny_if_taintd: []"))).toEqual([
      "team.yaml:3: paths.deny_if_taintd: expected one of deny, deny_if_tainted, confirm, confirm_if_tainted, deny_read (did you mean deny_if_tainted?), got an unknown key",
    ]);
  });

  it("points the key written at the top level to paths:", () => {
    expect(problemsOf(lines("version: 1", "deny_if_tainted: []"))[0]).toMatch(
      /^team\.yaml:2: deny_if_tainted: expected one of .* \(did you mean paths\.deny_if_tainted \(it belongs under paths:\)\?\), got an unknown key$/,
    );
  });

  it("says what the list and its items expect", () => {
    expect(problemsOf(lines("version: 1", "paths:", '  deny_if_tainted: "**/.env"'))).toEqual([
      'team.yaml:3: paths.deny_if_tainted: expected a list of path patterns (quoted strings), got "**/.env"',
    ]);
    const text = lines("version: 1", "paths:", "  deny_if_tainted:", '    - "**/.env"', "    - 7", '    - ".env"');
    expect(problemsOf(text)).toEqual([
      "team.yaml:5: paths.deny_if_tainted[1]: expected a path pattern string, got number 7",
      expect.stringMatching(/^team\.yaml:6: paths\.deny_if_tainted\[2\]: expected an absolute anchor .*, got "\.env"$/),
    ]);
  });
});
