import type { Gate, GateAnswer, HeldRequest, JudgeContext, ObservedResponse } from "../core/gate.js";

/**
 * Several judges in front of one server (pins, then policy). The first refusal wins, so a
 * changed tool is refused for what it is before its arguments are weighed; every gate sees
 * every response, so taint and pin state never depend on which gate spoke last.
 */
export function chainGates(gates: readonly Gate[]): Gate {
  if (gates.length === 1 && gates[0]) return gates[0];
  return {
    async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
      let last: GateAnswer = { action: "forward" };
      for (const gate of gates) {
        const answer = await gate.judge(req, ctx);
        if (answer.action === "refuse") return answer;
        last = answer;
      }
      return last;
    },
    async observe(seen: ObservedResponse, ctx: JudgeContext): Promise<void> {
      for (const gate of gates) await gate.observe?.(seen, ctx);
    },
    async observeServerMessage(msg: Record<string, unknown>, ctx: JudgeContext): Promise<void> {
      for (const gate of gates) await gate.observeServerMessage?.(msg, ctx);
    },
  };
}
