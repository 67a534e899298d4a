/**
 * How held client requests are described to the gate and answered when refused: one member per
 * judged request (alone or in a batch), including ill-formed ones, and the refusal answers for a
 * frame, one per request the client will wait for.
 */
import { JUDGED_METHODS, type HeldRequest } from "../core/gate.js";
import { isModernRequest, isValidId, paramsProblem, type Classified } from "../core/jsonrpc.js";
import type { RefusalMember } from "../core/refusal-frame.js";

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
      id: isValidId(c.id) ? c.id : JSON.stringify(c.id ?? null),
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
    id: isValidId(id) ? id : JSON.stringify(id ?? null),
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
): RefusalMember[] {
  const answers: RefusalMember[] = [];
  if (all) {
    for (const [index, m] of all.entries()) {
      if (m.kind !== "request" && !(m.kind === "invalid" && m.method !== undefined && m.id !== undefined))
        continue;
      const jm = judged.find((j) => j.index === index);
      answers.push({
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
