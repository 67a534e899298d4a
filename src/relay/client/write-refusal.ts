// The answers effectgate writes itself: refusals of judged calls, and errors for frames it could not handle.
import type { HeldRequest } from "../../core/gate/gate.js";
import { batchRefusalFrame, refusalFrame, type RefusalMember } from "../../core/gate/refusal-frame.js";
import { classify, type Classified } from "../../core/wire/jsonrpc.js";
import { idKey } from "../server/correlate.js";
import { isId, refusalAnswers, withClientSpelling, type Member } from "./held-members.js";
import { textOf, type SeenFrame } from "../session/seen-frame.js";
import type { ClientContext } from "./client-context.js";

/** Every request of a frame with a refused call is answered as refused; the server sees none of it. */
export function writeRefusal(
  client: ClientContext,
  frame: SeenFrame,
  judged: Member[],
  held: readonly HeldRequest["id"][],
  refusedText: Map<Member, string>,
  firstRefusal: { member: Member; text: string },
  all: Classified[] | undefined,
): void {
  const d = client.d;
  const isBatch = all !== undefined;
  const reasonOthers = `Not sent: effectgate refused another call in the same batch (${firstRefusal.member.method} id ${JSON.stringify(firstRefusal.member.id)}): ${firstRefusal.text}`;
  const answers = refusalAnswers(judged, refusedText, reasonOthers, all);
  for (const m of judged)
    if (m.answerId && isId(m.answerId.value)) client.refusedIds.add(idKey(m.answerId.value));
  for (const id of held) d.correlator.refused(id);
  d.stats.refused += judged.length;
  d.log.event("refused", {
    batch: isBatch,
    calls: judged.map((m) => ({
      method: m.method,
      id: m.answerId?.value ?? null,
      problem: m.problem ?? null,
      text: refusedText.get(m) ?? reasonOthers,
    })),
  });
  if (answers.length === 0) {
    d.announce(
      `refused a ${firstRefusal.member.method} that carried no usable id; nothing could be answered: ${firstRefusal.text}`,
    );
    return;
  }
  // An id past 2^53 is answered as the client spelled it, not as JSON.parse rounded it.
  const spelled = withClientSpelling(answers, () => textOf(frame));
  if (client.inFlight) client.inFlight.done = true;
  d.toClient(
    spelled.spell(
      isBatch ? batchRefusalFrame(spelled.answers) : refusalFrame(spelled.answers[0] as RefusalMember),
    ),
  );
}

/** A frame whose handling threw: each of its requests gets an error answer; nothing was sent. */
export function answerFailure(client: ClientContext, frame: SeenFrame, err: unknown): void {
  const d = client.d;
  const message = err instanceof Error ? err.message : String(err);
  const ids = failureIds(textOf(frame));
  d.log.event("handling-error", { ids, error: message });
  if (ids.length === 0) return;
  const answers = ids.map((id) => ({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32603,
      message: `effectgate could not handle this request (${message}), so it was not sent to the server`,
    },
  }));
  d.stats.refused += ids.length;
  d.toClient(
    JSON.stringify(ids.length === 1 && !textOf(frame).trimStart().startsWith("[") ? answers[0] : answers),
  );
}

/**
 * The ids of a frame that could not be handled, best effort: every request (and ill-formed call)
 * of the frame when it parses, else the first id its text shows.
 */
function failureIds(text: string): unknown[] {
  try {
    const c = classify(JSON.parse(text));
    return (c.kind === "batch" ? c.members : [c]).flatMap((m) =>
      (m.kind === "request" || m.kind === "invalid") && m.id !== undefined && isId(m.id) ? [m.id] : [],
    );
  } catch {
    const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(text);
    try {
      return m?.[1] !== undefined ? [JSON.parse(m[1]) as unknown] : [];
    } catch {
      return [];
    }
  }
}
