// The refusal texts word for word: the model and the user read them, so every sentence is pinned.
import { describe, expect, it } from "vitest";
import { checkCommand, refusalText, type RefusalFacts } from "../../../src/core/gate/refusal-text.js";
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

describe("checkCommand", () => {
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

  it("words a too-long question's refusal and offers enforce", () => {
    const t = refusalText({ ...facts, kind: "too-long-to-ask", level: "strict" }).split("\n");
    expect(t[0]).toBe(
      'effectgate held this call to "w" for the user\'s confirmation: w would write /h/.ssh/k, which matches paths.deny ~/.ssh/**.',
    );
    expect(t[1]).toBe(
      "Its effects are too long to show whole in a question (more than 16384 characters), and a person cannot approve what they cannot read, so the call was refused.",
    );
    expect(t[4]).toContain("run effectgate with --level enforce");
  });
});

describe("refusalText, the remaining kinds and targets", () => {
  const confirm: Decision = {
    verdict: "confirm",
    rule: "commands.confirm",
    reason: "runs",
    effects: [{ operation: "exec", kind: "command", at: "arguments", spelled: "make" }],
    tainted: false,
  };

  it("words a question that waits, with its id or without one", () => {
    const t = refusalText({ ...facts, kind: "pending", decision: confirm, pendingId: "q7" }).split("\n");
    expect(t.slice(0, 2)).toEqual([
      `effectgate held this call to "w" for the user's confirmation: runs.`,
      "Nobody could be asked in this client, so the question waits as q7 and the call was refused for now.",
    ]);
    expect(t[3]).toBe(
      "The call did not reach the server. Tell the user: to allow it, run `effectgate allow q7` in a terminal (`effectgate pending` lists what waits), then ask you to retry exactly this call. Do not retry it with another spelling.",
    );
    expect(t[4]).toMatch(/^The user can: run effectgate with --level enforce /);
    const noId = refusalText({ ...facts, kind: "pending", decision: confirm }).split("\n");
    expect(noId[1]).toContain("the question waits as (no id) and");
    expect(noId[3]).toContain("run `effectgate allow ID` in a terminal");
  });

  it("says why a declined question went unanswered when it knows", () => {
    const t = refusalText({ ...facts, kind: "declined", decision: confirm, askWhy: "timed out" });
    expect(t.split("\n")[0]).toBe(
      'effectgate asked the user about this call to "w" (runs); the user did not allow it, or the question went unanswered (timed out).',
    );
  });

  it("offers no policy edit for effectgate's own files", () => {
    const own: Decision = { ...deny, rule: "effectgate's own files" };
    expect(refusalText({ ...facts, decision: own }).split("\n")[3]).toMatch(
      /^The user can: change effectgate's own files outside this session \(no policy lets the server it guards touch them\); set EFFECTGATE_OFF=1/,
    );
  });

  it("names the destination only when an egress rule decided, and never a bare URL", () => {
    const sent: Decision = {
      verdict: "deny",
      rule: "egress.secrets",
      reason: "sends a key",
      effects: [
        {
          operation: "send",
          kind: "egress",
          at: "a",
          spelled: "https://x.example",
          destination: { host: "x.example" },
        },
        { operation: "write", kind: "path", at: "b", spelled: "f", canonical: "/h/f" },
      ],
      tainted: false,
    };
    expect(refusalText({ ...facts, decision: sent }).split("\n")[1]).toMatch(
      /^Target: sending to .*x\.example.*\. Rule: egress\.secrets\./,
    );
    const byPath = { ...sent, rule: "paths.deny /h/**" };
    expect(refusalText({ ...facts, decision: byPath }).split("\n")[1]).toMatch(/^Target: \/h\/f\. /);
    const egressNoDestination: Decision = {
      ...sent,
      effects: [{ operation: "send", kind: "egress", at: "a", spelled: "s" }, ...sent.effects.slice(1)],
    };
    expect(refusalText({ ...facts, decision: egressNoDestination }).split("\n")[1]).toMatch(
      /^Target: \/h\/f\. /,
    );
    const urlOnly: Decision = {
      ...deny,
      effects: [{ operation: "read", kind: "url", at: "a", spelled: "https://x" }],
    };
    expect(refusalText({ ...facts, decision: urlOnly }).split("\n")[1]).toMatch(/^Target: \(none\)\. /);
  });

  it("names no target when an egress rule decided a call without effects", () => {
    const bare: Decision = {
      verdict: "deny",
      rule: "egress.secrets",
      reason: "r",
      effects: [],
      tainted: false,
    };
    expect(refusalText({ ...facts, decision: bare }).split("\n")[1]).toMatch(/^Target: \(none\)\. /);
  });

  it("words a pin refusal with the lock and its own next step", () => {
    const pin = {
      ...facts,
      kind: "pin" as const,
      policySource: "/p/effectgate.lock",
      decision: { ...deny, reason: "the tool changed" },
    };
    expect(refusalText(pin).split("\n")).toEqual([
      'effectgate refused this call to "w": the tool changed.',
      "Lock: /p/effectgate.lock. Level: enforce.",
      RETRY,
      "The user can: review the server's tools with effectgate approve --diff; run with --level observe to record instead of refuse; set EFFECTGATE_OFF=1 for one run to turn every check off.",
    ]);
    expect(refusalText({ ...pin, next: "run effectgate approve" }).split("\n")[3]).toMatch(
      /^The user can: run effectgate approve; run with/,
    );
  });
});
