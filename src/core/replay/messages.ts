// What a logged JSON-RPC message was, as replay and eval read a log back. The classification is
// the relay's own (core/wire/jsonrpc.ts), so a reader never names a frame otherwise than the
// relay judged it; this file only reshapes it for display and decides nothing.
import type { JsonRpcId } from "../types.js";
import { classify as classifyWire, isRecord, type Classified } from "../wire/jsonrpc.js";

export type Message =
  | { kind: "request"; method: string; id: JsonRpcId; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: JsonRpcId; body: Record<string, unknown> }
  | { kind: "other"; why: string };

export function classify(value: unknown): Message {
  return fromWire(classifyWire(value));
}

/** One classified member as replay shows it: what the relay could not read is `other`, with why. */
function fromWire(c: Classified): Message {
  switch (c.kind) {
    case "request":
      return { kind: "request", method: c.method, id: c.id, params: c.params };
    case "notification":
      return { kind: "notification", method: c.method, params: c.params };
    case "response":
      // An answer with a null id (to a request nobody could read) answers no request here.
      return c.id === null
        ? { kind: "other", why: "an answer with a null id: it answers no request" }
        : { kind: "response", id: c.id, body: c.msg };
    case "invalid":
      return { kind: "other", why: c.reason };
    case "batch":
      return { kind: "other", why: "expected a JSON-RPC object, got a list" };
  }
}

/** Map key for an id in one direction: `1` and `"1"` stay different (JSON quotes the string). */
export function idKey(direction: "c2s" | "s2c", id: JsonRpcId): string {
  return `${direction}:${JSON.stringify(id)}`;
}

/** The frame's messages: one, or each member of a batch. Undefined when not JSON. */
export function parseFrame(text: string): { batch: boolean; messages: Message[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const c = classifyWire(value);
  if (c.kind === "batch") return { batch: true, messages: c.members.map(fromWire) };
  return { batch: Array.isArray(value), messages: [fromWire(c)] };
}

export function toolOf(method: string, params: unknown): string | undefined {
  if (method !== "tools/call" || !isRecord(params)) return undefined;
  const name = params["name"];
  return typeof name === "string" ? name : undefined;
}

/** A response that reports failure: a JSON-RPC error, or a tool result with isError true. */
export function failureOf(body: Record<string, unknown>): { code?: number; message: string } | undefined {
  const error = body["error"];
  if (isRecord(error)) {
    const code = typeof error["code"] === "number" ? error["code"] : undefined;
    const message = typeof error["message"] === "string" ? error["message"] : "";
    return { code, message };
  }
  const result = body["result"];
  if (isRecord(result) && result["isError"] === true) return { message: firstText(result) ?? "" };
  return undefined;
}

/** The first text block of a tool result, if any. */
export function firstText(result: Record<string, unknown>): string | undefined {
  const content = result["content"];
  if (!Array.isArray(content)) return undefined;
  for (const block of content) if (isRecord(block) && typeof block["text"] === "string") return block["text"];
  return undefined;
}

export { isRecord };
