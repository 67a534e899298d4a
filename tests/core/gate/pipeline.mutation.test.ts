import { describe, expect, it } from "vitest";
import { denial, gateAnswer, type JudgedFacts } from "../../../src/core/gate/pipeline.js";
import type { Decision } from "../../../src/core/types.js";

// How a reply settles a question: which channel answered is kept on the answer for the log, and
// the words of a no carry the reason and the id of a question that waits.
const confirm: Decision = { verdict: "confirm", rule: "r", reason: "it runs", effects: [], tainted: false };
const facts: JudgedFacts = {
  tool: "t",
  method: "tools/call",
  params: { name: "t", arguments: {} },
  decision: confirm,
  level: "strict",
  policySource: "default",
};

function asked() {
  const a = gateAnswer(facts, true);
  if (a.action !== "ask") throw new Error(`expected a question, got ${a.action}`);
  return a;
}

describe("settling a question", () => {
  it("keeps how it was answered, and only when it was told", async () => {
    const how = { channel: "dialog" as const };
    expect(await asked().settle("accept", how)).toEqual({
      action: "forward",
      outcome: "ask-accepted",
      decision: confirm,
      wouldRefuse: false,
      asked: how,
    });
    expect("asked" in (await asked().settle("accept"))).toBe(false);
    expect("asked" in (await asked().settle("decline"))).toBe(false);
    expect(await asked().settle("decline", how)).toMatchObject({ action: "refuse", asked: how });
  });

  it("words a question that waits with its id, and a no with its reason", async () => {
    const waits = await asked().settle("pending", { channel: "pending", pendingId: "p-1" });
    expect(waits).toMatchObject({ action: "refuse", outcome: "ask-pending" });
    expect(waits.action === "refuse" && waits.text).toContain("the question waits as p-1 and");
    const no = await asked().settle("failed", { channel: "elicitation", why: "the client timed out" });
    expect(no.action === "refuse" && no.text.split("\n")[0]).toMatch(
      /went unanswered \(the client timed out\)\.$/,
    );
    const retry = await asked().settle("input-required");
    expect(retry).toMatchObject({ action: "refuse", outcome: "ask-input-required", wouldRefuse: false });
    expect(retry.action === "refuse" && retry.text).toContain("the user did not allow it");
  });

  it("refuses an unjudgeable call as unjudgeable whatever explains a deny", () => {
    const d: Decision = { ...confirm, verdict: "deny", unjudgeable: "two ids" };
    const a = gateAnswer({ ...facts, level: "enforce", decision: d, denyKind: "pin" }, false);
    expect(a.action === "refuse" && a.text.split("\n")[0]).toBe(
      'effectgate refused this call to "t" because it could not be judged: two ids.',
    );
  });

  it("builds a pin's deny with no effects of its own", () => {
    expect(denial("pins lock.json", "tool changed", true)).toEqual({
      verdict: "deny",
      rule: "pins lock.json",
      reason: "tool changed",
      effects: [],
      tainted: true,
    });
  });
});
