// egress.credential_hosts (decision 0137): a variable name → host patterns. Bad input is named
// with its line, key and what was expected, like every other policy list.
import { describe, expect, it } from "vitest";
import { policyOf } from "../../helpers/judge.js";
import { problemsOf, useTempHome } from "../../helpers/policy.js";

useTempHome();
const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("egress.credential_hosts problems", () => {
  it("a host list given as one string", () => {
    expect(problemsOf(lines("version: 1", "egress:", "  credential_hosts:", "    GITHUB_TOKEN: github.com"))).toEqual([
      "team.yaml:4: egress.credential_hosts.GITHUB_TOKEN: expected a list of host patterns, got \"github.com\"",
    ]);
  });

  it("a host pattern with a scheme", () => {
    const [p] = problemsOf(
      lines("version: 1", "egress:", "  credential_hosts:", '    GITHUB_TOKEN: ["https://github.com"]'),
    );
    expect(p).toMatch(/^team\.yaml:4: egress\.credential_hosts\.GITHUB_TOKEN\[0\]: expected .*without a scheme/);
  });

  it("a mapping is expected, not a list", () => {
    const [p] = problemsOf(lines("version: 1", "egress:", "  credential_hosts: [github.com]"));
    expect(p).toContain("egress.credential_hosts: expected a mapping of variable names to lists of host patterns");
  });

  it("near miss: a good mapping loads, and its patterns match as host patterns do", () => {
    const p = policyOf(lines("version: 1", "egress:", "  credential_hosts:", '    GH_TOKEN: ["*.github.com"]'));
    expect(p.egress.credentialHost("GH_TOKEN", "api.github.com")).toBe("*.github.com");
    expect(p.egress.credentialHost("GH_TOKEN", "github.com.attacker.example")).toBeUndefined();
  });
});
