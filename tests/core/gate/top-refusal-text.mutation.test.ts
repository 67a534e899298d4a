// Refusal texts at their edges: the longest arguments still pasted, and which effect the Target
// sentence names.
import { describe, expect, it } from "vitest";
import { checkCommand, refusalText, type RefusalFacts } from "../../../src/core/gate/refusal-text.js";
import type { Decision, Effect } from "../../../src/core/types.js";

const facts = (d: Decision, params: unknown = { name: "w", arguments: {} }): RefusalFacts => ({
  kind: "deny",
  tool: "w",
  method: "tools/call",
  params,
  decision: d,
  level: "enforce",
  policySource: "default",
});
const decision = (reason: string, effects: Effect[]): Decision => ({
  verdict: "deny",
  rule: "r",
  reason,
  effects,
  tainted: false,
});
const targetOf = (d: Decision) => refusalText(facts(d)).split("\n")[1]?.split(". Rule:")[0];

describe("checkCommand", () => {
  it("pastes arguments of exactly 300 characters, and not one more", () => {
    const at300 = { name: "w", arguments: { p: "x".repeat(292) } };
    expect(JSON.stringify(at300.arguments)).toHaveLength(300);
    expect(checkCommand({ ...facts(decision("", []), at300) })).toBe(
      `effectgate check --tool 'w' --args '{"p":"${"x".repeat(292)}"}'`,
    );
    const at301 = { name: "w", arguments: { p: "x".repeat(293) } };
    expect(checkCommand({ ...facts(decision("", []), at301) })).toBe(
      "effectgate check --tool 'w' --args '<the same arguments>'",
    );
  });

  it("reads nothing from params that are not an object", () => {
    for (const params of ["arguments", 7, undefined, null, ["x"]])
      expect(checkCommand(facts(decision("", []), params))).toBe("effectgate check --tool 'w' --args '{}'");
    expect(checkCommand({ ...facts(decision("", []), "uri"), method: "resources/read" })).toBe(
      `effectgate check --method resources/read --args '{}'`,
    );
  });
});

describe("the Target sentence", () => {
  const url: Effect = { operation: "read", kind: "url", at: "u", spelled: "https://x.example" };
  const cmd: Effect = { operation: "exec", kind: "command", at: "c", spelled: "ls" };
  const path = (canonical: string): Effect => ({
    operation: "write",
    kind: "path",
    at: "p",
    spelled: "s",
    canonical,
  });

  it("never names a URL", () => {
    expect(targetOf(decision("fetches https://x.example", [url]))).toBe("Target: (none)");
    expect(targetOf(decision("r", [url, path("/a")]))).toBe("Target: /a");
  });

  it("names the effect the reason speaks of, else the first", () => {
    expect(targetOf(decision("w would write /b", [path("/a"), path("/b")]))).toBe("Target: /b");
    expect(targetOf(decision("nothing named", [path("/a"), path("/b")]))).toBe("Target: /a");
    // An effect without a canonical form is never "spoken of", even by a reason that says undefined.
    expect(targetOf(decision("the value was undefined", [path("/a"), cmd]))).toBe("Target: /a");
    expect(targetOf(decision("x", [cmd]))).toBe('Target: the command "ls"');
    expect(targetOf(decision("x", [{ operation: "write", kind: "path", at: "p", spelled: "raw" }]))).toBe(
      "Target: raw",
    );
  });
});
