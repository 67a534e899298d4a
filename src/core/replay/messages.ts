// Classifying JSON-RPC messages as replay and eval read them back from a log. The relay has its
// own, stricter classifier; this one only names what a frame was, it decides nothing.
import type { JsonRpcId } from "../types.js";

export type Message =
  | { kind: "request"; method: string; id: JsonRpcId; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: JsonRpcId; body: Record<string, unknown> }
  | { kind: "other"; why: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function classify(value: unknown): Message {
  if (!isRecord(value))
    return {
      kind: "other",
      why: `expected a JSON object, got ${Array.isArray(value) ? "a list" : typeof value}`,
    };
  const id = value["id"];
  const hasId = typeof id === "string" || typeof id === "number";
  const method = value["method"];
  if (typeof method === "string") {
    return hasId
      ? { kind: "request", method, id, params: value["params"] }
      : { kind: "notification", method, params: value["params"] };
  }
  if (hasId && ("result" in value || "error" in value)) return { kind: "response", id, body: value };
  return { kind: "other", why: "neither a request, a notification nor a response" };
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
  if (Array.isArray(value)) return { batch: true, messages: value.map(classify) };
  return { batch: false, messages: [classify(value)] };
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
