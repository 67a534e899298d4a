/**
 * How held client requests are described to the gate and answered when refused: one member per
 * judged request (alone or in a batch), including ill-formed ones, and the refusal answers for a
 * frame, one per request the client will wait for.
 */
import { randomBytes } from "node:crypto";
import { type HeldRequest } from "../../core/gate/gate.js";
import { JUDGED_METHODS } from "../../core/wire/judged-methods.js";
import {
  isModernRequest,
  isRoundedIntegerId,
  isValidId,
  paramsProblem,
  type Classified,
} from "../../core/wire/jsonrpc.js";
import { messageIdSpellings } from "../../core/wire/answer-readings.js";
import type { RefusalMember } from "../../core/gate/refusal-frame.js";
import type { JsonRpcId } from "../../core/types.js";

/** An id the relay can track: a string, or an integer (one past 2^53 by its rounded value). */
export function isId(id: unknown): id is JsonRpcId {
  return isValidId(id) || isRoundedIntegerId(id);
}

export interface Member {
  held: HeldRequest;
  /** The id to answer with, exactly as the client wrote it; absent when it wrote none. */
  answerId: { value: unknown } | undefined;
  /** Position in its batch. */
  index?: number;
}

/** A judged request (well- or ill-formed) as the gate will see it; undefined for anything else. */
export function judgedMember(c: Classified, problem: string | undefined): Member | undefined {
  if (c.kind === "request") {
    if (!JUDGED_METHODS.has(c.method)) return undefined;
    const held: HeldRequest = {
      method: c.method,
      id: c.id,
      params: c.params,
      modern: isModernRequest(c.params),
    };
    const why = problem ?? paramsProblem(c.method, c.params);
    if (why !== undefined) held.problem = why;
    return { held, answerId: { value: c.id } };
  }
  if (c.kind === "invalid" && c.method !== undefined && JUDGED_METHODS.has(c.method)) {
    const held: HeldRequest = {
      method: c.method,
      // The gate needs some id to name; the answer echoes the real one.
      id: isId(c.id) ? c.id : JSON.stringify(c.id ?? null),
      params: c.params,
      modern: isModernRequest(c.params),
      problem: problem ?? c.reason,
    };
    return { held, answerId: c.id !== undefined ? { value: c.id } : undefined };
  }
  return undefined;
}

/**
 * A frame with duplicate keys that JSON.parse read as something unjudged, while another
 * spelling of its method names `method` (a judged one): held as that call, with the problem.
 */
export function ambiguousMember(c: Classified, method: string, problem: string): Member {
  const id = c.kind === "request" || c.kind === "invalid" ? c.id : undefined;
  const params =
    c.kind === "request" || c.kind === "notification" || c.kind === "invalid" ? c.params : undefined;
  const held: HeldRequest = {
    method,
    id: isId(id) ? id : JSON.stringify(id ?? null),
    params,
    modern: isModernRequest(params),
    problem: `${problem}: the server may read the method as ${method}`,
  };
  return { held, answerId: id !== undefined ? { value: id } : undefined };
}

/** A member standing for a frame that cannot be read but looks like a judged call. */
export function unreadableMember(problem: string, answerId?: { value: unknown }): Member {
  return { held: { method: "tools/call", id: "", params: undefined, modern: false, problem }, answerId };
}

export function unparseable(text: string, error: string): Member {
  const m = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(text);
  const member = unreadableMember(
    `the frame is not valid JSON but looks like a judged call: ${error}`,
    idFromText(text),
  );
  member.held.method = m?.[1] ?? "tools/call";
  // The record names the call by the id the refusal answers, when it found one.
  const id = member.answerId?.value;
  if (isId(id)) member.held.id = id;
  return member;
}

/** Best effort id of a frame that does not parse, so the refusal can still be matched. */
function idFromText(text: string): { value: unknown } | undefined {
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*"|null)/.exec(text);
  if (!m?.[1]) return undefined;
  try {
    return { value: JSON.parse(m[1]) as unknown };
  } catch {
    return undefined;
  }
}

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
        modern: jm?.held.modern ?? isModernRequest(m.params),
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
      modern: m.held.modern,
      method: m.held.method,
      params: m.held.params,
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

/**
 * A frame that looks like a judged call but cannot be judged as one: held as a tools/call with the
 * problem, under the id (and params) it carries, so that the refusal reaches the request the
 * client waits on and the decision record names it.
 */
export function unreadableRequest(c: Classified, problem: string): Member {
  const id = c.kind === "request" || c.kind === "invalid" ? c.id : undefined;
  const member = unreadableMember(problem, isId(id) ? { value: id } : undefined);
  if (isId(id)) member.held.id = id;
  if (c.kind === "request" || c.kind === "invalid" || c.kind === "notification") {
    member.held.params = c.params;
    member.held.modern = isModernRequest(c.params);
  }
  return member;
}
