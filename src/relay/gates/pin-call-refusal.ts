import type { GateAnswer, HeldRequest, JudgeContext } from "../../core/gate/gate.js";
import { denial, gateAnswer } from "../../core/gate/pipeline.js";
import type { Level } from "../../core/types.js";

/**
 * The answer to a call the pin gate or the name gate refuses, recorded as a `pin` call event.
 * A failed pin is a deny: the levels and the words are the policy gate's (pipeline.ts), so an
 * observe level records it and lets it through.
 */
export function pinCallAnswer(
  req: HeldRequest,
  ctx: JudgeContext,
  refusal: {
    /** The tool the call names, or a stand-in when it names none. */
    tool: string;
    /** The rule the refusal names (`pins look-alike`, `pins …`). */
    rule: string;
    reason: string;
    level: Level;
    /** The lock in use, for the refusal's words. */
    policySource: string;
    /** What the user can do next: the approve command line. */
    next: string;
  },
): GateAnswer {
  const { tool, rule, reason, level, policySource, next } = refusal;
  const answer = gateAnswer(
    {
      tool,
      method: req.method,
      params: req.params,
      decision: denial(rule, reason, false),
      level,
      policySource,
      next,
      denyKind: "pin",
    },
    false,
  );
  const refused = answer.action === "refuse";
  ctx.record("pin", { kind: "call", tool, id: req.id, reason, level, refused });
  return answer;
}
