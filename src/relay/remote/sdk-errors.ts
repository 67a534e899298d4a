/** What the bridge reads from an error the SDK's transports throw or report. */
import { isRecord } from "../../core/wire/jsonrpc.js";
import { TokensChanged } from "./auth/provider.js";
import { idKey } from "./in-flight.js";
import type { Msg } from "./wire-transport.js";

/** HTTP status of an SDK error, when it has one. */
export function statusOf(err: unknown): number | undefined {
  const e = err as { status?: unknown; code?: unknown; data?: { status?: unknown } } | null;
  const s = e?.status ?? e?.data?.status ?? (typeof e?.code === "number" ? e.code : undefined);
  return typeof s === "number" ? s : undefined;
}

/** The SDK's UnauthorizedError, or the provider's word that new tokens are there to use. */
export const isUnauthorized = (err: unknown): boolean =>
  err instanceof TokensChanged ||
  (err instanceof Error &&
    (err.name === "UnauthorizedError" || err.constructor.name === "UnauthorizedError"));

/** One line about an error, with its cause (fetch says only "fetch failed" without it). */
export function messageOf(err: unknown): string {
  let text = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error ? (err as { cause?: unknown }).cause : undefined;
  if (cause instanceof Error && !text.includes(cause.message)) text += ` (${cause.message})`;
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}

/** A JSON-RPC error response for `id` in the body of an SDK HTTP error, if there is one. */
export function serverAnswerIn(err: unknown, id: unknown): Msg | undefined {
  const text = (err as { data?: { text?: unknown } } | null)?.data?.text;
  if (typeof text !== "string") return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (isRecord(v) && isRecord(v["error"]) && idKey(v["id"]) === idKey(id)) return v;
  } catch {
    /* not JSON */
  }
  return undefined;
}
