import { describe, expect, it } from "vitest";
import { denial, gateAnswer, type JudgedFacts } from "../../../src/core/gate/pipeline.js";
import type { Decision, Level, Verdict } from "../../../src/core/types.js";

const decision = (verdict: Verdict): Decision => ({
  verdict,
  rule: verdict === "allow" ? undefined : "r",
  reason: `it is ${verdict}`,
  effects: [],
  tainted: false,
});
const facts = (verdict: Verdict, level: Level): JudgedFacts => ({
  tool: "write_file",
  method: "tools/call",
  params: { name: "write_file", arguments: {} },
  decision: decision(verdict),
  level,
  policySource: "default",
});

describe("the one gate pipeline", () => {
  it("gives every gate the outcome of the levels, and says what enforce would refuse", () => {
    expect(gateAnswer(facts("deny", "observe"), false)).toMatchObject({
      action: "forward",
      outcome: "forward",
      wouldRefuse: true,
    });
    expect(gateAnswer(facts("confirm", "enforce"), false)).toMatchObject({
      action: "forward",
      outcome: "forward-noted",
      wouldRefuse: false,
    });
    const refused = gateAnswer(facts("deny", "enforce"), false);
    expect(refused).toMatchObject({ action: "refuse", outcome: "refuse", wouldRefuse: true });
    expect(refused.action === "refuse" && refused.text).toMatch(
      /^effectgate refused this call to "write_file": it is deny\./,
    );
  });

  it("makes asking an answer of its own, settled by the user's reply", async () => {
    const asked = gateAnswer(facts("confirm", "strict"), true);
    expect(asked.action).toBe("ask");
    if (asked.action !== "ask") return;
    expect(asked.question).toContain('allow this call to "write_file"?');
    expect(await asked.settle("accept")).toMatchObject({ action: "forward", outcome: "ask-accepted" });
    for (const [reply, outcome] of [
      ["decline", "ask-declined"],
      ["cancel", "ask-cancelled"],
      ["failed", "ask-failed"],
    ] as const) {
      const a = await asked.settle(reply);
      expect(a).toMatchObject({ action: "refuse", outcome });
      expect(a.action === "refuse" && a.text).toContain("the user did not allow it");
    }
    const nobody = gateAnswer(facts("confirm", "strict"), false);
    expect(nobody).toMatchObject({ action: "refuse", outcome: "ask-unavailable" });
    expect(nobody.action === "refuse" && nobody.text).toContain("This client cannot be asked");
    // A question too long to read whole is not put, even to a client that can be asked.
    const long = facts("confirm", "strict");
    long.decision.effects = [
      {
        operation: "exec",
        kind: "command",
        at: "arguments.command",
        spelled: `make ${"x".repeat(17 * 1024)}; touch PAYLOAD`,
      },
    ];
    const tooLong = gateAnswer(long, true);
    expect(tooLong).toMatchObject({ action: "refuse", outcome: "ask-too-long" });
    expect(tooLong.action === "refuse" && tooLong.text).toContain("too long to show whole");
  });

  it("explains a failed pin with the lock and the command that reviews it", () => {
    const pin: JudgedFacts = {
      ...facts("deny", "strict"),
      decision: denial("pins lock.json", "tool changed", false),
      policySource: "lock.json",
      next: "review the change with: effectgate approve --diff -- node s.mjs",
      denyKind: "pin",
    };
    const a = gateAnswer(pin, true);
    expect(a.action === "refuse" && a.text.split("\n")).toEqual([
      'effectgate refused this call to "write_file": tool changed.',
      "Lock: lock.json. Level: strict.",
      "The call did not reach the server. Do not retry it with another spelling; tell the user what was refused and why.",
      "The user can: review the change with: effectgate approve --diff -- node s.mjs; run with --level observe to record instead of refuse; set EFFECTGATE_OFF=1 for one run to turn every check off.",
    ]);
    expect(gateAnswer({ ...pin, level: "observe" }, false)).toMatchObject({
      action: "forward",
      wouldRefuse: true,
    });
  });
});
