/**
 * Asking in a 2026-07-28 session, where effectgate may send the client no request: the held call
 * is answered with an `input_required` result whose `inputRequests` holds the approval form
 * (approval-form.ts), and the client's retry (a new id) carries the answer in `inputResponses`
 * and echoes the sealed `requestState` (request-state.ts). The retry effectgate forwards has its
 * own two members taken out again, and the server's, if the call carried any, put back
 * (docs/decisions/0123-asking-in-the-result.md).
 */
import { isRecord } from "../wire/jsonrpc.js";
import { approvalForm } from "./approval-form.js";
import { declaresForm } from "./ask-channel.js";

/** The key of effectgate's question in `inputRequests` and of its answer in `inputResponses`. */
export const APPROVAL_INPUT = "effectgate_approval";

const CLIENT_CAPS = "io.modelcontextprotocol/clientCapabilities";

/** A 2026-07-28 request's own client capabilities (`_meta`), or undefined. */
export function requestCapabilities(params: unknown): unknown {
  const meta = isRecord(params) && isRecord(params["_meta"]) ? params["_meta"] : undefined;
  return meta?.[CLIENT_CAPS];
}

/** Whether this 2026-07-28 request declares form elicitation in its `_meta` (ask-channel.ts). */
export function declaresFormElicitation(params: unknown): boolean {
  return declaresForm(requestCapabilities(params));
}

/** The result that asks: `resultType: "input_required"` with the question and the sealed state. */
export function inputRequiredResult(question: string, state: string): Record<string, unknown> {
  return {
    resultType: "input_required",
    inputRequests: { [APPROVAL_INPUT]: { method: "elicitation/create", params: approvalForm(question) } },
    requestState: state,
  };
}

/** What a retry carries for effectgate, and the params the server is to get. */
export interface Retry {
  /** The answer to effectgate's question, as the client wrote it (undefined: none). */
  answer: unknown;
  /** The retry's params without `requestState` and `inputResponses`. */
  rest: Record<string, unknown>;
}

/** Splits a retry's params into effectgate's answer and the rest. */
export function splitRetry(params: Record<string, unknown>): Retry {
  const { requestState: _state, inputResponses, ...rest } = params;
  const answer = isRecord(inputResponses) ? inputResponses[APPROVAL_INPUT] : undefined;
  return { answer, rest };
}

/**
 * The server's own MRTR members of the call asked about (it may itself be a retry of the
 * server's question): the client's retry echoes only effectgate's, so these are put back.
 */
export interface ServerInput {
  requestState?: unknown;
  inputResponses?: unknown;
}

export function serverInputOf(params: unknown): ServerInput {
  if (!isRecord(params)) return {};
  return {
    ...("requestState" in params ? { requestState: params["requestState"] } : {}),
    ...("inputResponses" in params ? { inputResponses: params["inputResponses"] } : {}),
  };
}

/**
 * Whether a frame's numbers survive being parsed and written again: an approved retry is
 * forwarded re-serialised (effectgate's members out, the server's back). A plain integer is
 * read exactly by some servers (Python's json), so one past 2^53 would reach them rounded; a
 * number past a double's range (`1e400`) would reach them as `null`, and `-0.0` as `0`. A
 * decimal is a double to every reader. Such a retry is refused instead.
 */
export function numbersSurviveRewrite(text: string): boolean {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const m of outsideStrings.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    const lit = m[0];
    const value = Number(lit);
    if (!Number.isFinite(value)) return false;
    if (/^-?\d+$/.test(lit) ? !Number.isSafeInteger(value) : Object.is(value, -0)) return false;
  }
  return true;
}
