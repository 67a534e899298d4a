/**
 * The one reading of a client frame: its text → the judged calls in it (well- or ill-formed), the
 * requests it carries, and the problem that makes a call unjudgeable. The relay
 * (src/relay/client/client-side.ts), both evaluations (src/core/evaluation/) and `check` read
 * frames here, so what `eval` reports is what `enforce` judged (docs/decisions/0073).
 *
 * Unjudgeable, and refused at enforce: text that is not JSON but looks like a judged call, a raw
 * CR inside the line, duplicate keys or nesting past the depth budget, a member in another case
 * (`"Params"`), a batch with a malformed member, a judged method without a usable id, ill-formed
 * params. Nothing here decides; it only says what a server could read.
 */
import { parseSharingLongStrings } from "../json/long-string-parse.js";
import { parseStrictJson } from "../json/strict-json.js";
import { foldedKeyProblem } from "./folded-members.js";
import { JUDGED_METHODS } from "./judged-methods.js";
import {
  classify,
  isModernRequest,
  isRoundedIntegerId,
  isValidId,
  paramsProblem,
  type Classified,
} from "./jsonrpc.js";
import { ambiguousJudgedMethod, looksLikeJudgedCall } from "./judged-call-text.js";
import type { JsonRpcId } from "../types.js";

/** One judged request, as the gate sees it and as its refusal answers it. */
export interface JudgedCall {
  method: string;
  /** The id the gate and the log name: the client's, or a stand-in when it wrote none usable. */
  id: JsonRpcId;
  /** The id to answer with, exactly as the client wrote it; absent when it wrote none. */
  answerId: { value: unknown } | undefined;
  /** Parsed params; undefined when absent or unreadable. */
  params: unknown;
  /** A 2026-07-28 request (its answers need `resultType`; the relay never asks about it). */
  modern: boolean;
  /** Why the call cannot be judged as it stands; a gate refuses it at enforce and strict. */
  problem?: string;
  /** Position in its batch. */
  index?: number;
}

/** A request of the frame whose answer belongs to the client (judged or not). */
export interface ClientRequest {
  method: string;
  id: JsonRpcId;
  params: unknown;
}

export type ClientFrame =
  /** Not JSON. `calls` holds one unreadable call when the text looks like a judged call. */
  | { kind: "not-json"; error: string; calls: JudgedCall[] }
  | {
      kind: "parsed";
      /** The classified message (a batch holds its members). */
      message: Classified;
      /** Every member of a batch; undefined for a single message. */
      members: Classified[] | undefined;
      calls: JudgedCall[];
      /** Well-formed requests with a usable id, in order. */
      requests: ClientRequest[];
      /** A CR inside the line split it for some servers: every call in it is unjudgeable. */
      crSplit: boolean;
    };

/**
 * What the caller knows of the frame beyond its text. The relay's big frames in pass-through
 * were tested as they streamed past (their text may be cut), and a frame cut for reading carries
 * the problem of being cut (src/relay/session/seen-frame.ts).
 */
export interface FrameFacts {
  /** The frame holds a CR before its end; default: tested on the text. */
  crInside?: boolean;
  /** The whole frame looks like a judged call; default: tested on the text. */
  looksJudged?: boolean;
  /** Why the parsed value is not the frame the server reads, or undefined. */
  cutProblem?: (value: unknown) => string | undefined;
}

export const CR_PROBLEM =
  "a carriage return inside the line: a server that ends lines at CR reads it as several messages";

const CR_INSIDE = /\r(?!$)/;

export function readClientFrame(text: string, facts: FrameFacts = {}): ClientFrame {
  const looksJudged = (): boolean => facts.looksJudged ?? looksLikeJudgedCall(text);
  const strict = parseStrictJson(text, undefined, parseSharingLongStrings);
  let value: unknown;
  let problem: string | undefined;
  if (strict.ok) value = strict.value;
  else {
    try {
      value = parseSharingLongStrings(text);
      problem = strict.error; // valid JSON, but read two ways (duplicate keys) or too deep
    } catch {
      return {
        kind: "not-json",
        error: strict.error,
        calls: looksJudged() ? [unparseable(text, strict.error)] : [],
      };
    }
  }
  // A frame read cut short is not the frame the server reads, unless the judge reads it alike.
  problem = facts.cutProblem?.(value) ?? problem;
  // A member in another case ("Method", "Params") is a second spelling a Go server reads.
  problem ??= foldedKeyProblem(value);
  const message = classify(value);
  const members = message.kind === "batch" ? message.members : undefined;
  const requests = (members ?? [message]).flatMap((m) =>
    m.kind === "request" ? [{ method: m.method, id: m.id, params: m.params }] : [],
  );
  // JSON allows a raw CR between tokens, and a server that ends lines at CR (as Python's text
  // streams do) reads the line as several messages: one of them may be a call nobody judged.
  const crSplit = (facts.crInside ?? CR_INSIDE.test(text)) && looksJudged();
  let calls: JudgedCall[];
  if (crSplit) calls = crCalls(message, members);
  else if (members) calls = batchCalls(members, problem, text, looksJudged);
  else calls = oneCall(message, problem, text, looksJudged);
  return { kind: "parsed", message, members, calls, requests, crSplit };
}

function crCalls(message: Classified, members: Classified[] | undefined): JudgedCall[] {
  if (!members) return [judgedCall(message, CR_PROBLEM) ?? unreadableRequest(message, CR_PROBLEM)];
  const calls = indexed(members, CR_PROBLEM);
  return calls.length > 0 ? calls : [unreadableCall(CR_PROBLEM)];
}

function oneCall(
  c: Classified,
  problem: string | undefined,
  text: string,
  looksJudged: () => boolean,
): JudgedCall[] {
  const call = judgedCall(c, problem) ?? ambiguous(c, problem, text);
  if (call) return [call];
  if (c.kind === "invalid" && looksJudged()) return [unreadableRequest(c, c.reason)];
  return [];
}

function batchCalls(
  members: Classified[],
  problem: string | undefined,
  text: string,
  looksJudged: () => boolean,
): JudgedCall[] {
  const malformed = members.find((m): m is Extract<Classified, { kind: "invalid" }> => m.kind === "invalid");
  // A malformed member makes the whole batch unjudgeable; a problem of the frame is named first.
  const malformedProblem = malformed
    ? (problem ?? `a batch with a malformed member (${malformed.reason})`)
    : undefined;
  const batchProblem = malformedProblem ?? problem;
  const calls = indexed(members, batchProblem);
  if (calls.length === 0 && malformedProblem !== undefined && looksJudged())
    calls.push(unreadableCall(malformedProblem));
  const method = calls.length === 0 && problem !== undefined ? ambiguousJudgedMethod(text) : undefined;
  if (method !== undefined) {
    const call = unreadableCall(`${problem}: the server may read a method as ${method}`);
    call.method = method;
    calls.push(call);
  }
  return calls;
}

function indexed(members: Classified[], problem: string | undefined): JudgedCall[] {
  return members.flatMap((m, index) => {
    const call = judgedCall(m, problem);
    return call ? [{ ...call, index }] : [];
  });
}

/** An id the relay can track: a string, or an integer (one past 2^53 by its rounded value). */
export function isTrackableId(id: unknown): id is JsonRpcId {
  return isValidId(id) || isRoundedIntegerId(id);
}

/** The id a call without a usable one is named by: `""`, or the JSON of what it wrote. */
function standIn(id: unknown): JsonRpcId {
  return isTrackableId(id) ? id : JSON.stringify(id ?? null);
}

/** A judged request (well- or ill-formed); undefined for anything else. */
function judgedCall(c: Classified, problem: string | undefined): JudgedCall | undefined {
  if (c.kind === "request") {
    if (!JUDGED_METHODS.has(c.method)) return undefined;
    const why = problem ?? paramsProblem(c.method, c.params);
    return {
      method: c.method,
      id: c.id,
      answerId: { value: c.id },
      params: c.params,
      modern: isModernRequest(c.params),
      ...(why !== undefined ? { problem: why } : {}),
    };
  }
  if (c.kind === "invalid" && c.method !== undefined && JUDGED_METHODS.has(c.method)) {
    // A judged method without an id is ill-formed, not a notification to wave through.
    return {
      method: c.method,
      id: standIn(c.id),
      answerId: c.id !== undefined ? { value: c.id } : undefined,
      params: c.params,
      modern: isModernRequest(c.params),
      problem: problem ?? c.reason,
    };
  }
  return undefined;
}

/**
 * Read two ways (duplicate keys), and the last-wins reading is not judged: held as the judged
 * method another spelling names, since the server may read that one.
 */
function ambiguous(c: Classified, problem: string | undefined, text: string): JudgedCall | undefined {
  if (problem === undefined) return undefined;
  const method = ambiguousJudgedMethod(text);
  if (method === undefined) return undefined;
  const id = c.kind === "request" || c.kind === "invalid" ? c.id : undefined;
  const params = paramsOf(c);
  return {
    method,
    id: standIn(id),
    answerId: id !== undefined ? { value: id } : undefined,
    params,
    modern: isModernRequest(params),
    problem: `${problem}: the server may read the method as ${method}`,
  };
}

function paramsOf(c: Classified): unknown {
  return c.kind === "request" || c.kind === "notification" || c.kind === "invalid" ? c.params : undefined;
}

/** A call standing for a frame that cannot be read but looks like a judged call. */
function unreadableCall(problem: string, answerId?: { value: unknown }): JudgedCall {
  return { method: "tools/call", id: "", answerId, params: undefined, modern: false, problem };
}

/**
 * A message that looks like a judged call but cannot be judged as one: a tools/call with the
 * problem, under the id (and params) it carries, so that the refusal reaches the request the
 * client waits on and the decision record names it.
 */
function unreadableRequest(c: Classified, problem: string): JudgedCall {
  const id = c.kind === "request" || c.kind === "invalid" ? c.id : undefined;
  const call = unreadableCall(problem, isTrackableId(id) ? { value: id } : undefined);
  if (isTrackableId(id)) call.id = id;
  if (c.kind === "request" || c.kind === "invalid" || c.kind === "notification") {
    call.params = c.params;
    call.modern = isModernRequest(c.params);
  }
  return call;
}

/** Text that is not JSON but looks like a judged call: named by the method and id it shows. */
function unparseable(text: string, error: string): JudgedCall {
  const call = unreadableCall(
    `the frame is not valid JSON but looks like a judged call: ${error}`,
    idFromText(text),
  );
  call.method = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(text)?.[1] ?? "tools/call";
  // The record names the call by the id the refusal answers, when it found one.
  const id = call.answerId?.value;
  if (isTrackableId(id)) call.id = id;
  return call;
}

/** Best-effort id of a frame that does not parse, so the refusal can still be matched. */
function idFromText(text: string): { value: unknown } | undefined {
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*"|null)/.exec(text);
  if (!m?.[1]) return undefined;
  try {
    return { value: JSON.parse(m[1]) as unknown };
  } catch {
    return undefined;
  }
}

/** The id a call can be answered and tracked under, or undefined when it carries none. */
export function answerableId(call: JudgedCall): JsonRpcId | undefined {
  const id = call.answerId?.value;
  return isTrackableId(id) ? id : undefined;
}
