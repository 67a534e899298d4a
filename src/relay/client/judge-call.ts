// One held call before the gate: its context, its questions settled, a gate that throws refusing.
import type {
  AskHow,
  AskReply,
  Gate,
  HeldRequest,
  JudgeContext,
  SettledAnswer,
} from "../../core/gate/gate.js";
import { idKey } from "../server/correlate.js";
import type { Member } from "./held-members.js";
import type { MemberRecords } from "./batch-records.js";
import type { ClientContext } from "./client-context.js";
import { askUser, canElicit, keyOf, rememberYes } from "./ask-user.js";
import { canAskInResult } from "./result-frames.js";

/** The gate's answer, once any question it asked is settled; a gate that throws refuses. */
export async function judgeCall(
  client: ClientContext,
  held: HeldRequest,
  kept?: MemberRecords,
): Promise<SettledAnswer> {
  const d = client.d;
  const gate = d.gate as Gate;
  // A retry with effectgate's state is judged as the server would get it; its answer is in it.
  const retry = held.modern && client.alone.has(idKey(held.id)) ? client.inResult.retryOf(held) : undefined;
  const call = retry?.held ?? held;
  const ctx = context(client, call, kept);
  try {
    let answer = await gate.judge(call, ctx);
    let answered = false;
    while (answer.action === "ask") {
      let [reply, how]: [AskReply, AskHow?] = ["failed"];
      if (retry && !answered && d.outOfBand) {
        answered = true;
        const r = retry.reply(keyOf(client, call, answer));
        [reply, how] = [r.reply, r.how];
        if (r.reply === "accept" && r.remember !== undefined)
          await rememberYes(client, call, answer, r.remember, "in the chat");
      } else if (ctx.canAsk) [reply, how] = await askUser(client, call, answer);
      answer = await answer.settle(reply, how);
    }
    if (retry && answer.action === "forward") client.instead.set(idKey(held.id), { params: call.params });
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
  const canAsk =
    !d.passThrough && (canElicit(client, held) || canAskInResult(client, held) || d.outOfBand !== undefined);
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
