// The judged calls in a logged client frame, read as the relay reads a frame before it judges it
// (src/relay/client/client-side.ts `handle()` and src/relay/client/held-members.ts): a frame that is not JSON
// but looks like a call, a raw CR inside a line, a batch with a malformed member, duplicate keys
// and ill-formed params all make a call unjudgeable, which the relay refuses at enforce. Eval
// judges what the relay judged, so that its numbers say what enforce and strict would have done.
import { JUDGED_METHODS } from "../wire/judged-methods.js";
import { classify, isModernRequest, isValidId, paramsProblem, type Classified } from "../wire/jsonrpc.js";
import { ambiguousJudgedMethod, looksLikeJudgedCall } from "../wire/judged-call-text.js";
import { idFromText } from "../replay/logged-frames.js";
import { parseStrictJson } from "../json/strict-json.js";
import type { JsonRpcId } from "../types.js";

/** One call to judge: `id` is undefined when the client wrote none that can be answered. */
export interface LoggedCall {
  method: string;
  id: JsonRpcId | undefined;
  params: unknown;
  problem?: string;
  /** A 2026-07-28 request: the relay never asks about it at strict. */
  modern: boolean;
}

/** Every request in the frame (judged or not), whose answers belong to the client. */
export interface LoggedRequest {
  method: string;
  id: JsonRpcId;
  params: unknown;
}

export type ClientFrameRead =
  | { kind: "read"; calls: LoggedCall[]; requests: LoggedRequest[] }
  /** A frame that looks like a judged call but whose bytes the log did not keep whole. */
  | { kind: "not-kept"; id: JsonRpcId | undefined };

const CR_INSIDE = /\r(?!$)/;
const CR_PROBLEM =
  "a carriage return inside the line: a server that ends lines at CR reads it as several messages";

/** `text` is the frame as the relay read it; `whole` false when the log kept only its head. */
export function readClientFrame(text: string, whole: boolean): ClientFrameRead {
  if (!whole)
    return looksLikeJudgedCall(text)
      ? { kind: "not-kept", id: idFromText(text) }
      : { kind: "read", calls: [], requests: [] };
  const strict = parseStrictJson(text);
  let value: unknown;
  let problem: string | undefined;
  if (strict.ok) value = strict.value;
  else {
    try {
      value = JSON.parse(text);
      problem = strict.error; // valid JSON, but read two ways (duplicate keys) or too deep
    } catch {
      if (!looksLikeJudgedCall(text)) return { kind: "read", calls: [], requests: [] };
      const method = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(text)?.[1] ?? "tools/call";
      const id = idFromText(text);
      const call = unreadable(
        `the frame is not valid JSON but looks like a judged call: ${strict.error}`,
        id,
      );
      call.method = method;
      return {
        kind: "read",
        calls: [call],
        requests: id !== undefined ? [{ method, id, params: undefined }] : [],
      };
    }
  }
  const c = classify(value);
  const requests = (c.kind === "batch" ? c.members : [c]).flatMap((m) =>
    m.kind === "request" ? [{ method: m.method, id: m.id, params: m.params }] : [],
  );
  if (CR_INSIDE.test(text) && looksLikeJudgedCall(text))
    return { kind: "read", calls: [unreadable(CR_PROBLEM, requests[0]?.id)], requests };
  return {
    kind: "read",
    calls: c.kind === "batch" ? batchCalls(c.members, problem, text) : oneCall(c, problem, text),
    requests,
  };
}

function oneCall(c: Classified, problem: string | undefined, text: string): LoggedCall[] {
  const call = judgedCall(c, problem) ?? ambiguous(c, problem, text);
  if (call) return [call];
  if (c.kind === "invalid" && looksLikeJudgedCall(text)) return [unreadable(c.reason, idOf(c))];
  return [];
}

function batchCalls(members: Classified[], problem: string | undefined, text: string): LoggedCall[] {
  const malformed = members.find((m): m is Extract<Classified, { kind: "invalid" }> => m.kind === "invalid");
  const batchProblem =
    problem ?? (malformed ? `a batch with a malformed member (${malformed.reason})` : undefined);
  const calls = members.flatMap((m) => judgedCall(m, batchProblem) ?? []);
  if (calls.length === 0 && malformed && looksLikeJudgedCall(text))
    calls.push(unreadable(batchProblem ?? "a batch that cannot be judged", undefined));
  const method = calls.length === 0 && problem !== undefined ? ambiguousJudgedMethod(text) : undefined;
  if (method !== undefined) {
    const call = unreadable(`${problem}: the server may read a method as ${method}`, undefined);
    call.method = method;
    calls.push(call);
  }
  return calls;
}

/** A judged request (well- or ill-formed) as the relay's gate sees it; undefined for anything else. */
function judgedCall(c: Classified, problem: string | undefined): LoggedCall | undefined {
  if (c.kind !== "request" && c.kind !== "invalid") return undefined;
  if (c.method === undefined || !JUDGED_METHODS.has(c.method)) return undefined;
  const why = c.kind === "request" ? (problem ?? paramsProblem(c.method, c.params)) : (problem ?? c.reason);
  return {
    method: c.method,
    id: idOf(c),
    params: c.params,
    modern: isModernRequest(c.params),
    ...(why !== undefined ? { problem: why } : {}),
  };
}

/** Read two ways (duplicate keys): held as the judged method another spelling names. */
function ambiguous(c: Classified, problem: string | undefined, text: string): LoggedCall | undefined {
  if (problem === undefined) return undefined;
  const method = ambiguousJudgedMethod(text);
  if (method === undefined) return undefined;
  const params =
    c.kind === "request" || c.kind === "notification" || c.kind === "invalid" ? c.params : undefined;
  return {
    method,
    id: idOf(c),
    params,
    modern: isModernRequest(params),
    problem: `${problem}: the server may read the method as ${method}`,
  };
}

function unreadable(problem: string, id: JsonRpcId | undefined): LoggedCall {
  return { method: "tools/call", id, params: undefined, modern: false, problem };
}

function idOf(c: Classified): JsonRpcId | undefined {
  if (c.kind === "request") return c.id;
  if (c.kind === "invalid" && isValidId(c.id)) return c.id;
  return undefined;
}
