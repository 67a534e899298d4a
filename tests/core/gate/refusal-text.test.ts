import { describe, expect, it } from "vitest";
import { askQuestion } from "../../../src/core/gate/ask-text.js";
import { checkCommand, refusalText } from "../../../src/core/gate/refusal-text.js";
import type { Decision } from "../../../src/core/types.js";

const decision: Decision = {
  verdict: "deny",
  rule: "paths.deny ~/.ssh/**",
  reason: "write_file would write /home/user/.ssh/authorized_keys, which matches paths.deny ~/.ssh/**",
  effects: [
    {
      operation: "write",
      kind: "path",
      at: "arguments.path",
      spelled: "~/.ssh/authorized_keys",
      canonical: "/home/user/.ssh/authorized_keys",
    },
  ],
  tainted: false,
};
const params = { name: "write_file", arguments: { path: "~/.ssh/authorized_keys" } };
const base = {
  tool: "write_file",
  method: "tools/call",
  params,
  decision,
  level: "enforce" as const,
  policySource: "default",
};

describe("refusal text", () => {
  it("names the tool, canonical path, rule, policy, level and remedies", () => {
    const t = refusalText({ ...base, kind: "deny" });
    for (const part of [
      '"write_file"',
      "/home/user/.ssh/authorized_keys",
      "paths.deny ~/.ssh/**",
      "default policy",
      "Level: enforce",
      "EFFECTGATE_OFF=1",
      "effectgate check --tool 'write_file'",
    ]) {
      expect(t).toContain(part);
    }
  });

  it("offers --level enforce for a confirm that could not be asked, and names a policy file", () => {
    const confirm = { ...decision, verdict: "confirm" as const, rule: "paths.confirm **/package.json" };
    const t = refusalText({
      ...base,
      decision: confirm,
      kind: "cannot-ask",
      level: "strict",
      policySource: "/etc/my policy.yaml",
    });
    expect(t).toContain("--level enforce");
    expect(t).toContain("cannot be asked");
    expect(t).toContain("--policy '/etc/my policy.yaml'");
  });

  it("quotes arguments for a POSIX shell and replaces long ones", () => {
    const cmd = checkCommand({
      tool: "w",
      method: "tools/call",
      params: { name: "w", arguments: { p: "it's" } },
      policySource: "default",
      tainted: true,
    });
    expect(cmd).toBe(`effectgate check --tainted --tool 'w' --args '{"p":"it'\\''s"}'`);
    const long = checkCommand({
      tool: "w",
      method: "tools/call",
      params: { name: "w", arguments: { p: "x".repeat(1000) } },
      policySource: "default",
    });
    expect(long).toContain("<the same arguments>");
  });

  it("says why an unjudgeable call was refused", () => {
    const t = refusalText({
      ...base,
      kind: "unjudgeable",
      decision: { ...decision, rule: "unjudgeable", unjudgeable: 'duplicate key "path"', effects: [] },
    });
    expect(t).toContain('could not be judged: duplicate key "path"');
  });

  it("asks a question that names the tool and the rule", () => {
    const q = askQuestion(base);
    expect(q.ok && q.text).toContain('allow this call to "write_file"?');
    expect(q.ok && q.text).toContain("paths.deny ~/.ssh/**");
  });
});
