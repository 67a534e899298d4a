// One held call before the gate: its context, its questions settled, a gate that throws refusing.
import type { Gate, HeldRequest, JudgeContext, SettledAnswer } from "../../core/gate/gate.js";
import type { Member } from "./held-members.js";
import type { MemberRecords } from "./batch-records.js";
import type { ClientContext } from "./client-context.js";
import { askUser, canElicit } from "./ask-user.js";

/** The gate's answer, once any question it asked is settled; a gate that throws refuses. */
export async function judgeCall(
  client: ClientContext,
  held: HeldRequest,
  kept?: MemberRecords,
): Promise<SettledAnswer> {
  const d = client.d;
  const gate = d.gate as Gate;
  const ctx = context(client, held, kept);
  try {
    let answer = await gate.judge(held, ctx);
    while (answer.action === "ask") {
      const [reply, how] = ctx.canAsk ? await askUser(client, held, answer) : (["failed"] as const);
      answer = await answer.settle(reply, how);
    }
    return answer;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    d.log.event("gate-error", { method: held.method, id: held.id, error: message });
    d.announce(`could not judge ${held.method} id ${JSON.stringify(held.id)}: ${message}; refused it`);
    return {
      action: "refuse",
      text: `effectgate could not judge this call (${message}), so it was not sent to the server.`,
    };
  }
}

function context(client: ClientContext, held: HeldRequest, kept?: MemberRecords): JudgeContext {
  const d = client.d;
  const canAsk = !d.passThrough && (canElicit(client, held) || d.outOfBand !== undefined);
  return kept
    ? {
        record: (ev, data) => kept.events.push([ev, data]),
        announce: d.announce,
        recordAllows: true,
        canAsk,
      }
    : { record: (ev, data) => d.log.event(ev, data), announce: d.announce, canAsk };
}

/** What the gate is shown of a judged call. */
export function heldRequest(m: Member): HeldRequest {
  return {
    method: m.method,
    id: m.id,
    params: m.params,
    modern: m.modern,
    ...(m.problem !== undefined ? { problem: m.problem } : {}),
  };
}
