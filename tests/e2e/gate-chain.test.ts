import { describe, expect, it } from "vitest";
import type { Gate, JudgeContext } from "../../src/core/gate/gate.js";
import { chainGates } from "../../src/relay/gates/gate-chain.js";

const ctx: JudgeContext = { record: () => {}, announce: () => {} };
const held = { method: "tools/call", id: 1, params: { name: "t" }, modern: false };

function gate(action: "forward" | "refuse", seen: string[], label: string): Gate {
  return {
    judge: async () => {
      seen.push(`judge ${label}`);
      return action === "refuse" ? { action, text: label } : { action };
    },
    observe: () => {
      seen.push(`observe ${label}`);
    },
  };
}

describe("chainGates", () => {
  it("returns the first refusal and does not ask later gates", async () => {
    const seen: string[] = [];
    const answer = await chainGates([gate("refuse", seen, "pins"), gate("forward", seen, "policy")]).judge(
      held,
      ctx,
    );
    expect(answer).toEqual({ action: "refuse", text: "pins" });
    expect(seen).toEqual(["judge pins"]);
  });

  it("forwards only when every gate forwards, and shows every response to every gate", async () => {
    const seen: string[] = [];
    const chain = chainGates([gate("forward", seen, "pins"), gate("forward", seen, "policy")]);
    expect((await chain.judge(held, ctx)).action).toBe("forward");
    await chain.observe?.(
      { request: { method: "tools/call", id: 1, params: {} }, response: { result: {} } },
      ctx,
    );
    expect(seen).toEqual(["judge pins", "judge policy", "observe pins", "observe policy"]);
  });

  it("a refusal from the last gate still refuses", async () => {
    const seen: string[] = [];
    const answer = await chainGates([gate("forward", seen, "pins"), gate("refuse", seen, "policy")]).judge(
      held,
      ctx,
    );
    expect(answer.action).toBe("refuse");
  });
});
