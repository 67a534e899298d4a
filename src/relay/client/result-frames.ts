// The frames of asking in a 2026-07-28 call's result: the question to the client, the approved retry to the server.
import type { HeldRequest } from "../../core/gate/gate.js";
import { declaresFormElicitation, numbersSurviveRewrite } from "../../core/gate/input-required.js";
import { refusalFrame, type RefusalMember } from "../../core/gate/refusal-frame.js";
import { idKey } from "../server/correlate.js";
import { isId, withClientSpelling, type Member } from "./held-members.js";
import { isCut, textOf, type SeenFrame } from "../session/seen-frame.js";
import type { ClientContext } from "./client-context.js";

/**
 * Whether this call's question can go back as its result: a 2026-07-28 call alone in its frame
 * whose client declared form elicitation in that call's `_meta` (decision 0123).
 */
export function canAskInResult(client: ClientContext, held: HeldRequest): boolean {
  return (
    !client.d.passThrough &&
    held.modern &&
    client.alone.has(idKey(held.id)) &&
    declaresFormElicitation(held.params)
  );
}

/** A 2026-07-28 call asked about in its result: the client gets the question, the server nothing. */
export function answerWithQuestion(
  client: ClientContext,
  frame: SeenFrame,
  m: Member,
  question: Record<string, unknown>,
): void {
  const d = client.d;
  if (!m.answerId) return;
  const spelled = withClientSpelling([{ id: m.answerId.value, text: "", modern: true }], () => textOf(frame));
  const id = (spelled.answers[0] as RefusalMember).id;
  if (isId(m.answerId.value)) client.refusedIds.add(idKey(m.answerId.value));
  d.correlator.refused(m.id);
  d.stats.consumed++;
  if (client.inFlight) client.inFlight.done = true;
  d.toClient(spelled.spell(JSON.stringify({ jsonrpc: "2.0", id, result: question })));
}

/**
 * An approved 2026-07-28 retry goes on re-serialised: effectgate's state and answer out, the
 * server's own (if the call asked about carried any) back in (decision 0123). A frame whose
 * numbers would not survive that is refused instead.
 */
export function forwardRetry(client: ClientContext, frame: SeenFrame, m: Member, params: unknown): void {
  const d = client.d;
  if (!m.answerId) return client.forward(frame);
  const text = textOf(frame);
  const spelled = withClientSpelling([{ id: m.answerId.value, text: "", modern: true }], () => text);
  const id = (spelled.answers[0] as RefusalMember).id;
  if (client.inFlight) client.inFlight.done = true;
  // Cut for reading (decision 0144), its params are not what the client sent: never re-sent so.
  const inexact = isCut(frame)
    ? "it was too large to read whole, and only what was read could be sent"
    : !numbersSurviveRewrite(text)
      ? "it holds an integer past 2^53, which would reach the server rounded"
      : undefined;
  if (inexact !== undefined) {
    const why = `effectgate could not send this retry exactly: ${inexact}. Retry the call without the answer to be asked again.`;
    if (isId(m.answerId.value)) client.refusedIds.add(idKey(m.answerId.value));
    d.correlator.refused(m.id);
    d.stats.refused++;
    d.log.event("refused", {
      batch: false,
      calls: [{ method: m.method, id: m.answerId.value, problem: null, text: why }],
    });
    d.toClient(spelled.spell(refusalFrame({ id, text: why, modern: true, method: m.method, params })));
    return;
  }
  client.track(m.method, m.id, params);
  d.stats.forwarded++;
  // The log keeps the client's frame as it came; this says what the server got instead.
  d.log.event("retry-forwarded", { id: m.answerId.value, without: ["requestState", "inputResponses"] });
  const line = spelled.spell(JSON.stringify({ jsonrpc: "2.0", id, method: m.method, params }));
  d.toServer.write(Buffer.from(`${line}${frame.eol}`));
}
