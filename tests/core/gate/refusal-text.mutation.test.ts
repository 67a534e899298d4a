// The refusal texts word for word: the model and the user read them, so every sentence is pinned.
import { describe, expect, it } from "vitest";
import {
  askText,
  checkCommand,
  refusalText,
  type RefusalFacts,
} from "../../../src/core/gate/refusal-text.js";
import type { Decision } from "../../../src/core/types.js";

const deny: Decision = {
  verdict: "deny",
  rule: "paths.deny ~/.ssh/**",
  reason: "w would write /h/.ssh/k, which matches paths.deny ~/.ssh/**",
  effects: [
    { operation: "read", kind: "url", at: "a", spelled: "https://x" },
    { operation: "write", kind: "path", at: "b", spelled: "other", canonical: "/h/other" },
    { operation: "write", kind: "path", at: "c", spelled: "~/.ssh/k", canonical: "/h/.ssh/k" },
  ],
  tainted: false,
};
const facts: RefusalFacts = {
  kind: "deny",
  tool: "w",
  method: "tools/call",
  params: { name: "w", arguments: { p: "it's" } },
  decision: deny,
  level: "enforce",
  policySource: "default",
};
const RETRY =
  "The call did not reach the server. Do not retry it with another spelling; tell the user what was refused and why.";

describe("refusalText", () => {
  it("words a deny under the default policy", () => {
    expect(refusalText(facts).split("\n")).toEqual([
      'effectgate refused this call to "w": w would write /h/.ssh/k, which matches paths.deny ~/.ssh/**.',
      "Target: /h/.ssh/k. Rule: paths.deny ~/.ssh/**. Policy: the built-in default policy. Level: enforce.",
      RETRY,
      `The user can: edit or remove the rule "paths.deny ~/.ssh/**" in a copy of the default policy passed with --policy FILE; set EFFECTGATE_OFF=1 for one run to turn every check off. To see why: effectgate check --tool 'w' --args '{"p":"it'\\''s"}'`,
    ]);
  });

  it("words an unjudgeable call under a policy file, tainted", () => {
    const d: Decision = {
      verdict: "deny",
      rule: "unjudgeable",
      reason: "r",
      effects: [],
      tainted: true,
      unjudgeable: "dup key",
    };
    expect(
      refusalText({
        ...facts,
        kind: "unjudgeable",
        decision: d,
        policySource: "/p/team.yaml",
        level: "strict",
      }).split("\n"),
    ).toEqual([
      'effectgate refused this call to "w" because it could not be judged: dup key.',
      "Target: (none). Rule: unjudgeable. Policy: the policy /p/team.yaml. Level: strict. The session has taken in untrusted content.",
      RETRY,
      "The user can: send the call in a form effectgate can read (well-formed JSON, no duplicate keys, within the size budget); run with --level observe to record instead of refuse; set EFFECTGATE_OFF=1 for one run to turn every check off. To see why: effectgate check --policy '/p/team.yaml' --tainted --tool 'w' --args '{\"p\":\"it'\\''s\"}'",
    ]);
    const noWhy = { ...d, unjudgeable: undefined } as Decision;
    expect(refusalText({ ...facts, kind: "unjudgeable", decision: noWhy }).split("\n")[0]).toBe(
      'effectgate refused this call to "w" because it could not be judged: r.',
    );
  });

  it("words cannot-ask and declined, with a command target and no rule", () => {
    const c: Decision = {
      verdict: "confirm",
      reason: "runs",
      effects: [{ operation: "exec", kind: "command", at: "arguments", spelled: "ls -l" }],
      tainted: false,
    };
    const t = refusalText({ ...facts, kind: "cannot-ask", decision: c, level: "strict" }).split("\n");
    expect(t.slice(0, 3)).toEqual([
      `effectgate held this call to "w" for the user's confirmation: runs.`,
      "This client cannot be asked (it did not declare elicitation), so the call was refused.",
      'Target: the command "ls -l". Rule: (none). Policy: the built-in default policy. Level: strict.',
    ]);
    expect(t[4]).toMatch(
      /^The user can: run effectgate with --level enforce \(confirm verdicts are then relayed with a notice\); edit or remove the rule "\(none\)" in a copy/,
    );
    const dcl = refusalText({ ...facts, kind: "declined", decision: c, policySource: "t.yaml" }).split("\n");
    expect(dcl[0]).toBe(
      'effectgate asked the user about this call to "w" (runs); the user did not allow it, or the question went unanswered.',
    );
    expect(dcl[3]).toMatch(
      /^The user can: run effectgate with --level enforce .*; edit or remove the rule "\(none\)" in t\.yaml; set/,
    );
  });

  it("falls back to the first named effect, spelled when not canonical", () => {
    const d: Decision = {
      ...deny,
      reason: "nothing in common",
      effects: [{ operation: "write", kind: "path", at: "x", spelled: "raw" }],
    };
    expect(refusalText({ ...facts, decision: d }).split("\n")[1]).toMatch(/^Target: raw\. /);
  });
});

describe("checkCommand and askText", () => {
  it("builds pasteable check commands per method", () => {
    expect(checkCommand({ ...facts, method: "resources/read", params: { uri: "file:///x" } })).toBe(
      `effectgate check --method resources/read --args '{"uri":"file:///x"}'`,
    );
    expect(checkCommand({ ...facts, method: "prompts/get", params: { name: "p" } })).toBe(
      "effectgate check --method prompts/get --tool 'w' --args '{}'",
    );
    expect(checkCommand({ ...facts, params: null })).toBe("effectgate check --tool 'w' --args '{}'");
    const long = { name: "w", arguments: { p: "x".repeat(300) } };
    expect(checkCommand({ ...facts, params: long })).toBe(
      "effectgate check --tool 'w' --args '<the same arguments>'",
    );
    const fits = { name: "w", arguments: { p: "x".repeat(291) } };
    expect(checkCommand({ ...facts, params: fits })).toBe(
      `effectgate check --tool 'w' --args '{"p":"${"x".repeat(291)}"}'`,
    );
    expect(checkCommand({ ...facts, params: { arguments: { n: 1n } } })).toBe(
      "effectgate check --tool 'w' --args '{}'",
    );
    expect(checkCommand({ ...facts, tainted: false })).not.toContain("--tainted");
  });

  it("asks with the reason, every effect a yes approves, the rule and the policy", () => {
    expect(askText({ ...facts })).toBe(
      'effectgate: allow "w"? w would write /h/.ssh/k, which matches paths.deny ~/.ssh/**. It would: fetch https://x; write /h/.ssh/k; write /h/other. Rule: paths.deny ~/.ssh/** (default policy).',
    );
    expect(
      askText({
        ...facts,
        policySource: "t.yaml",
        decision: { ...deny, rule: undefined, effects: [] } as Decision,
      }),
    ).toBe(
      'effectgate: allow "w"? w would write /h/.ssh/k, which matches paths.deny ~/.ssh/**. Rule: (none) (t.yaml).',
    );
  });

  it("shows a tool name and targets a model chose escaped, so nothing hides in the question", () => {
    const hidden: Decision = {
      ...deny,
      effects: [{ operation: "write", kind: "path", at: "b", spelled: "x", canonical: "/h/a\u202e\nb" }],
    };
    const text = askText({ ...facts, tool: "w\u001b[2J", decision: hidden });
    expect(text).toContain('allow "w\\x1b[2J"?');
    expect(text).toContain("It would: write /h/a\\u202e\\nb.");
    for (const raw of ["\u001b", "\u202e", "\n"]) expect(text).not.toContain(raw);
  });
});
