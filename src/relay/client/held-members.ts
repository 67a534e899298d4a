/**
 * How a refused frame is answered: one refusal per request the client will wait for (the judged
 * calls themselves come from the core reader, src/core/wire/client-frame.ts).
 */
import { randomBytes } from "node:crypto";
import { isTrackableId, type JudgedCall } from "../../core/wire/client-frame.js";
import { isModernRequest, isRoundedIntegerId, type Classified } from "../../core/wire/jsonrpc.js";
import { messageIdSpellings } from "../../core/wire/answer-readings.js";
import type { RefusalMember } from "../../core/gate/refusal-frame.js";
import type { JsonRpcId } from "../../core/types.js";

/** An id the relay can track: a string, or an integer (one past 2^53 by its rounded value). */
export const isId = isTrackableId;

/** A judged call of a frame, as the core reader found it (src/core/wire/client-frame.ts). */
export type Member = JudgedCall;

/**
 * The answers for a refused frame. A batch (`all` given) answers every request in it, the
 * refused ones with their own text and the rest with `others`; a single frame answers its call.
 */
export function refusalAnswers(
  judged: readonly Member[],
  refusedText: ReadonlyMap<Member, string>,
  others: string,
  all?: readonly Classified[],
): IndexedRefusal[] {
  const answers: IndexedRefusal[] = [];
  if (all) {
    for (const [index, m] of all.entries()) {
      if (m.kind !== "request" && !(m.kind === "invalid" && m.method !== undefined && m.id !== undefined))
        continue;
      const jm = judged.find((j) => j.index === index);
      answers.push({
        index,
        id: m.id,
        text: (jm && refusedText.get(jm)) ?? others,
        modern: jm?.modern ?? isModernRequest(m.params),
        ...(m.method !== undefined ? { method: m.method } : {}),
        params: m.params,
      });
    }
    return answers;
  }
  for (const m of judged) {
    if (!m.answerId) continue;
    answers.push({
      id: m.answerId.value,
      text: refusedText.get(m) ?? others,
      modern: m.modern,
      method: m.method,
      params: m.params,
    });
  }
  return answers;
}

/** A refusal answer and, in a batch, the position of the request it answers. */
export type IndexedRefusal = RefusalMember & { index?: number };

/** The ids of every request in a frame being judged: the judged ones, or a batch's all. */
export function heldIds(judged: readonly Member[], all?: readonly Classified[]): JsonRpcId[] {
  const ids = all
    ? all.flatMap((m) => (m.kind === "request" || m.kind === "invalid" ? [m.id] : []))
    : judged.map((m) => m.answerId?.value);
  return ids.filter(isId);
}

/**
 * Refusal answers whose ids go out as the client spelled them. JSON.parse rounds an integer id
 * past 2^53 (…993 reads as …992); a client that keeps exact integers (Python) would never match
 * the rounded one. Such ids are swapped for a unique placeholder before the frame is written,
 * and `spell` puts the client's own digits back in its place.
 */
export function withClientSpelling(
  answers: readonly IndexedRefusal[],
  text: () => string,
): { answers: IndexedRefusal[]; spell: (frame: string) => string } {
  if (!answers.some((a) => isRoundedIntegerId(a.id))) return { answers: [...answers], spell: (f) => f };
  const spellings = messageIdSpellings(text());
  const tag = randomBytes(9).toString("hex");
  const swaps = new Map<string, string>();
  const out = answers.map((a, i) => {
    const spelling = spellings.get(a.index ?? 0);
    if (!isRoundedIntegerId(a.id) || spelling === undefined || !JSON_NUMBER.test(spelling)) return a;
    const placeholder = `${tag}-${i}`;
    swaps.set(JSON.stringify(placeholder), spelling);
    return { ...a, id: placeholder };
  });
  return {
    answers: out,
    spell: (frame) => {
      let f = frame;
      for (const [placeholder, spelling] of swaps) f = f.replace(placeholder, () => spelling);
      return f;
    },
  };
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
