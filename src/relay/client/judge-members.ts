// Holding and settling a frame's judged calls: judged in turn, then all forwarded, refused or cancelled.
import type { HeldRequest } from "../../core/gate/gate.js";
import type { Classified } from "../../core/wire/jsonrpc.js";
import type { ClientRequest } from "../../core/wire/client-frame.js";
import { batchRefusalFrame } from "../../core/gate/refusal-frame.js";
import { idKey } from "../server/correlate.js";
import { heldIds, isId, refusalAnswers, withClientSpelling, type Member } from "./held-members.js";
import { batchRecords, type MemberRecords } from "./batch-records.js";
import { textOf, type SeenFrame } from "../session/seen-frame.js";
import type { ClientContext } from "./client-context.js";
import { heldRequest, judgeCall } from "./judge-call.js";
import { writeRefusal } from "./write-refusal.js";
import { answerWithQuestion, forwardRetry } from "./result-frames.js";

/**
 * Judges each member in turn. All forward: the frame goes on unchanged. Any refusal: nothing
 * of the frame is sent, and every request in it is answered (one array frame for a batch).
 */
export async function judgeMembers(
  client: ClientContext,
  frame: SeenFrame,
  judged: Member[],
  all: Classified[] | undefined,
  requests: readonly ClientRequest[],
): Promise<void> {
  const d = client.d;
  const isBatch = all !== undefined;
  // Until the frame is sent or answered, the server must not answer any request in it: it has
  // not seen them, and a client would take its made-up answer (server-side.ts drops it).
  const held = d.passThrough ? [] : heldIds(judged, all);
  // Cancelled while it waited behind another call: not judged, not sent.
  if (anyCancelled(client, held)) return cancelHeld(client, frame, judged, held, isBatch, all);
  for (const id of held) d.correlator.hold(id);
  for (const m of judged) client.judging.set(idKey(m.id), new AbortController());
  const alone = !isBatch && judged.length === 1 ? judged[0] : undefined;
  if (alone) client.alone.add(idKey(alone.id));
  let firstRefusal: { member: Member; text: string } | undefined;
  const refusedText = new Map<Member, string>();
  // Several calls in one batch share its fate: their records wait until it is known.
  const records = judged.length > 1 ? new Map<Member, MemberRecords>() : undefined;
  try {
    for (const member of judged) {
      const kept: MemberRecords | undefined = records && { events: [], wouldRefuse: false };
      if (kept) records?.set(member, kept);
      const answer = await judgeCall(client, heldRequest(member), kept);
      // At observe nothing is refused, but the answer says what enforce would refuse.
      if (kept) kept.wouldRefuse = answer.wouldRefuse === true;
      if (answer.action === "refuse") {
        refusedText.set(member, answer.text);
        firstRefusal ??= { member, text: answer.text };
      }
    }
  } finally {
    for (const id of held) d.correlator.release(id);
    for (const m of judged) client.judging.delete(idKey(m.id));
    if (alone) client.alone.delete(idKey(alone.id));
  }
  const instead = alone && client.instead.get(idKey(alone.id));
  if (alone) client.instead.delete(idKey(alone.id));
  // Cancelled while it was judged or asked about: whatever the verdict, it is not sent, and
  // not answered (the client ignores a late answer to what it cancelled).
  if (anyCancelled(client, held)) {
    if (records)
      for (const [ev, data] of batchRecords(records, firstRefusal?.member, refusedText, false))
        d.log.event(ev, data);
    return cancelHeld(client, frame, judged, held, isBatch, all);
  }
  if (records)
    for (const [ev, data] of batchRecords(records, firstRefusal?.member, refusedText, d.passThrough))
      d.log.event(ev, data);
  if (!firstRefusal) {
    if (alone && instead && instead.params !== undefined)
      return forwardRetry(client, frame, alone, instead.params);
    if (isBatch) client.trackAll(requests);
    else for (const m of judged) client.track(m.method, m.id, m.params);
    return client.forward(frame);
  }
  if (d.passThrough) {
    // The gate said it only records, so the bytes went on before judging. Say so loudly.
    d.onError(new Error(`a record-only gate refused ${firstRefusal.member.method} after it was sent`));
    return;
  }
  if (alone && instead && instead.question !== undefined)
    return answerWithQuestion(client, frame, alone, instead.question);
  writeRefusal(client, frame, judged, held, refusedText, firstRefusal, all);
}

function anyCancelled(client: ClientContext, held: readonly HeldRequest["id"][]): boolean {
  return client.cancelledAhead.size > 0 && held.some((id) => client.cancelledAhead.has(idKey(id)));
}

/**
 * A frame whose request the client cancelled while effectgate held it: nothing of it is sent.
 * The cancelled requests get no answer; in a batch, every other request is answered as not
 * sent. The server never saw any of them, so no answer of its may carry their ids.
 */
function cancelHeld(
  client: ClientContext,
  frame: SeenFrame,
  judged: Member[],
  held: readonly HeldRequest["id"][],
  isBatch: boolean,
  all?: Classified[],
): void {
  const d = client.d;
  // Settled here: a later failure must not answer what the client cancelled.
  if (client.inFlight) client.inFlight.done = true;
  const cancelled = held.filter((id) => client.cancelledAhead.has(idKey(id)));
  for (const id of held) d.correlator.refused(id);
  // Its cancel, still in the lane, goes no further either.
  for (const id of cancelled) client.refusedIds.add(idKey(id));
  d.stats.consumed++;
  d.log.event("cancelled-held", { ids: cancelled, batch: isBatch });
  if (!isBatch) return;
  const text = `Not sent: the client cancelled another call in the same batch (id ${JSON.stringify(cancelled[0])}) while effectgate held it.`;
  const answers = refusalAnswers(judged, new Map(), text, all).filter(
    (a) => !(isId(a.id) && cancelled.some((id) => idKey(id) === idKey(a.id as HeldRequest["id"]))),
  );
  if (answers.length === 0) return;
  for (const a of answers) if (isId(a.id)) client.refusedIds.add(idKey(a.id));
  d.log.event("refused", {
    batch: true,
    calls: answers.map((a) => ({ method: a.method ?? null, id: a.id ?? null, problem: null, text })),
  });
  const spelled = withClientSpelling(answers, () => textOf(frame));
  d.toClient(spelled.spell(batchRefusalFrame(spelled.answers)));
}
