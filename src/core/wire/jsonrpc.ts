/**
 * Classifies parsed JSON-RPC messages. Only shapes are judged here; nothing is rewritten.
 * Ids keep their JSON type: `1` and `"1"` are different ids (JsonRpcId).
 */
import { JUDGED_METHODS } from "./judged-methods.js";
import type { JsonRpcId } from "../types.js";

export type Message = Record<string, unknown>;

export type Classified =
  | { kind: "request"; id: JsonRpcId; method: string; params: unknown; msg: Message }
  | { kind: "notification"; method: string; params: unknown; msg: Message }
  | { kind: "response"; id: JsonRpcId | null; msg: Message }
  | { kind: "batch"; members: Classified[] }
  /** `method`/`id` are kept when readable, so an ill-formed judged call is still recognised. */
  | { kind: "invalid"; reason: string; method?: string; id?: unknown; params?: unknown };

export const MODERN_VERSION_META = "io.modelcontextprotocol/protocolVersion";

export function isValidId(id: unknown): id is JsonRpcId {
  // Number.isSafeInteger is false for every non-number: it is the whole test of a number id.
  return typeof id === "string" || Number.isSafeInteger(id);
}

/**
 * An integer id beyond 2^53: a valid JSON-RPC id that JSON.parse rounds (9007199254740993 reads
 * as 9007199254740992). It is accepted as an id; the relay tracks it by the rounded value and
 * answers it with the spelling the client wrote (messageIdSpellings).
 */
export function isRoundedIntegerId(id: unknown): id is number {
  return Number.isInteger(id) && !Number.isSafeInteger(id);
}

function idProblem(id: unknown): string {
  return `expected a string or integer id, got ${id === null ? "null" : typeof id}`;
}

function isObject(v: unknown): v is Message {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function classify(value: unknown): Classified {
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: "invalid", reason: "empty batch" };
    return { kind: "batch", members: value.map(classifyOne) };
  }
  return classifyOne(value);
}

function classifyOne(value: unknown): Classified {
  if (!isObject(value))
    return {
      kind: "invalid",
      reason: `expected a JSON-RPC object, got ${Array.isArray(value) ? "a nested list" : typeof value}`,
    };
  const msg = value;
  if ("method" in msg) {
    const method = msg.method;
    if (typeof method !== "string")
      return { kind: "invalid", reason: `expected a string method, got ${typeof method}` };
    const params = msg.params;
    if (!("id" in msg)) {
      // A judged method without an id is ill-formed, not a notification to wave through.
      if (JUDGED_METHODS.has(method))
        return { kind: "invalid", reason: `${method} without an id`, method, params };
      return { kind: "notification", method, params, msg };
    }
    if (!isValidId(msg.id) && !isRoundedIntegerId(msg.id)) {
      return {
        kind: "invalid",
        reason: idProblem(msg.id),
        method,
        id: msg.id,
        params,
      };
    }
    return { kind: "request", id: msg.id, method, params, msg };
  }
  if ("result" in msg || "error" in msg) {
    const id = msg.id;
    if (id === null || id === undefined) return { kind: "response", id: null, msg };
    if (!isValidId(id) && !isRoundedIntegerId(id)) return { kind: "invalid", reason: idProblem(id), id };
    return { kind: "response", id, msg };
  }
  return { kind: "invalid", reason: "neither a request, a notification nor a response" };
}

/**
 * Why a judged request cannot be judged as it stands, or undefined when it can.
 * params must be an object (or absent); so must `arguments`.
 */
export function paramsProblem(method: string, params: unknown): string | undefined {
  if (params === undefined) return method === "tools/call" ? "tools/call without params" : undefined;
  if (!isObject(params)) return `${method}: expected params to be an object, got ${describe(params)}`;
  if ("arguments" in params && params.arguments !== undefined && !isObject(params.arguments)) {
    return `${method}: expected arguments to be an object, got ${describe(params.arguments)}`;
  }
  if (method === "tools/call" && typeof params.name !== "string")
    return `tools/call: expected name to be a string, got ${describe(params.name)}`;
  return undefined;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v;
}

/** A 2026-07-28 request names its protocol version in `params._meta`. */
export function isModernRequest(params: unknown): boolean {
  if (!isObject(params)) return false;
  const meta = params._meta;
  return isObject(meta) && typeof meta[MODERN_VERSION_META] === "string";
}

export function isRecord(v: unknown): v is Message {
  return isObject(v);
}
