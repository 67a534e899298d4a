/**
 * The one way a judged call becomes a gate answer, for every gate (policy, pins): the verdict at
 * the level (levels.ts) gives the outcome, a refusal gets the shared words (refusal-text.ts), and
 * a confirm at strict becomes a question whose reply settles the call. Asking is an answer of
 * its own, so whoever puts the question (elicitation today) is the relay's business, not the
 * gate's.
 */
import type { Decision } from "../types.js";
import type { AskHow, AskReply, GateAnswer, GateOutcome, SettledAnswer } from "./gate.js";
import { outcomeFor } from "./levels.js";
import { askQuestion } from "./ask-text.js";
import { refusalText, type RefusalFacts, type RefusalKind } from "./refusal-text.js";

/** One judged call: what the gate found, and what the words of its refusal need. */
export type JudgedFacts = Omit<RefusalFacts, "kind"> & {
  /** How a deny is explained: a rule's (`deny`), or a pin's (`pin`). */
  denyKind?: "deny" | "pin";
};

export function gateAnswer(f: JudgedFacts, canAsk: boolean): GateAnswer {
  const { decision } = f;
  const wouldRefuse = decision.verdict === "deny";
  switch (outcomeFor(f.level, decision.verdict)) {
    case "forward":
      return { action: "forward", outcome: "forward", decision, wouldRefuse };
    case "forward-noted":
      return { action: "forward", outcome: "forward-noted", decision, wouldRefuse };
    case "refuse":
      // An unjudgeable call carries "deny": enforce and strict refuse it, with that reason.
      return refused(
        f,
        decision.unjudgeable !== undefined ? "unjudgeable" : (f.denyKind ?? "deny"),
        "refuse",
      );
    case "ask": {
      if (!canAsk) return refused(f, "cannot-ask", "ask-unavailable");
      // A question too long to read whole is not put: the call is refused (ask-text.ts).
      const question = askQuestion(f);
      if (!question.ok) return refused(f, "too-long-to-ask", "ask-too-long");
      return {
        action: "ask",
        question: question.text,
        decision,
        wouldRefuse,
        settle: (reply: AskReply, how?: AskHow): SettledAnswer => {
          const asked = how === undefined ? {} : { asked: how };
          if (reply === "accept")
            return { action: "forward", outcome: "ask-accepted", decision, wouldRefuse, ...asked };
          const [kind, outcome] = NOT_ACCEPTED[reply];
          const words = {
            ...f,
            ...(how?.why !== undefined ? { askWhy: how.why } : {}),
            ...(how?.pendingId !== undefined ? { pendingId: how.pendingId } : {}),
          };
          return { ...refused(words, kind, outcome), ...asked };
        },
      };
    }
  }
}

/** What each reply but a yes makes of the call: the refusal's words and the record's outcome. */
const NOT_ACCEPTED: Record<Exclude<AskReply, "accept">, [RefusalKind, GateOutcome]> = {
  decline: ["declined", "ask-declined"],
  cancel: ["declined", "ask-cancelled"],
  failed: ["declined", "ask-failed"],
  pending: ["pending", "ask-pending"],
  // The relay answers with the question itself, not with these words (input-required.ts).
  "input-required": ["declined", "ask-input-required"],
};

function refused(
  f: JudgedFacts & Pick<RefusalFacts, "askWhy" | "pendingId">,
  kind: RefusalKind,
  outcome: GateOutcome,
): SettledAnswer {
  return {
    action: "refuse",
    outcome,
    decision: f.decision,
    wouldRefuse: f.decision.verdict === "deny",
    text: refusalText({ ...f, kind }),
  };
}

/** The facts of a verdict the gate reached without the policy judge (a failed pin). */
export function denial(rule: string, reason: string, tainted: boolean): Decision {
  return { verdict: "deny", rule, reason, effects: [], tainted };
}
