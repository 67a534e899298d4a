// How replay and eval read back what the relay logged about client calls: a frame's text as the
// relay read it (also when the log had to keep it as base64 or cut it), and the calls a refusal
// event says effectgate answered itself.
import type { JsonRpcId } from "../types.js";
import type { FrameLike } from "./entries.js";
import { isRecord } from "./messages.js";

/**
 * A logged frame's text as the relay read it. `text` is the frame itself; `base64` (bytes that
 * are not UTF-8) is decoded with U+FFFD for each bad sequence, which is how the relay decoded
 * the frame it judged (`Buffer#toString("utf8")`). `whole` is false for a frame over 16 MiB,
 * of which the log keeps only the first 64 KiB.
 */
export function loggedText(r: FrameLike): { text: string; whole: boolean; utf8: boolean } | undefined {
  const whole = r.truncated !== true;
  if (r.text !== undefined) return { text: r.text, whole, utf8: true };
  if (r.base64 !== undefined)
    return { text: Buffer.from(r.base64, "base64").toString("utf8"), whole, utf8: false };
  return undefined;
}

function usableId(v: unknown): JsonRpcId | undefined {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? v : undefined;
}

/**
 * Best-effort id of a frame that cannot be parsed (not JSON, or only its head was logged): the
 * first `"id":` value, as the relay reads it when it answers a refusal of such a frame.
 */
export function idFromText(text: string): JsonRpcId | undefined {
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(text);
  if (!m?.[1]) return undefined;
  try {
    return usableId(JSON.parse(m[1]) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * What the first 64 KiB of a cut frame says about the call in it, when it is one message (not a
 * batch): its method, id and tool name, each the first of its key in the text. A guess, only
 * used to show the call and match its answer; such a call is never judged from it.
 */
export function headFacts(head: string): { method?: string; id?: JsonRpcId; tool?: string } {
  if (!head.trimStart().startsWith("{")) return {};
  const method = /"method"\s*:\s*"([^"\\]{1,64})"/.exec(head)?.[1];
  const tool = /"name"\s*:\s*"([^"\\]{1,256})"/.exec(head)?.[1];
  const id = idFromText(head);
  return {
    ...(method !== undefined ? { method } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(tool !== undefined && method === "tools/call" ? { tool } : {}),
  };
}

/** A call effectgate answered itself, as a `refused` (or older `refusal`) event lists it. */
export type RefusedCall = { method: string | undefined; id: JsonRpcId | undefined; text: string };

/**
 * The calls one refusal answered. The relay writes `refused {batch, calls: [{method, id,
 * problem, text}]}` (docs/log-format.md); an id of null means the call had no usable id. Older
 * logs wrote `refusal` with `id`, or `ids` for a batch, and `reason` or `text`.
 */
export function refusedCalls(d: Record<string, unknown>): RefusedCall[] {
  const textOf = (r: Record<string, unknown>): string =>
    typeof r["reason"] === "string" ? r["reason"] : typeof r["text"] === "string" ? r["text"] : "";
  if (Array.isArray(d["calls"]))
    return d["calls"].filter(isRecord).map((c) => ({
      method: typeof c["method"] === "string" ? c["method"] : undefined,
      id: usableId(c["id"]),
      text: textOf(c),
    }));
  return [d["id"], ...(Array.isArray(d["ids"]) ? d["ids"] : [])]
    .map(usableId)
    .filter((id) => id !== undefined)
    .map((id) => ({ method: undefined, id, text: textOf(d) }));
}

/**
 * `decision` outcomes that mean effectgate answered the call itself: a refusal, and at strict a
 * question that was declined, cancelled, failed, could not be asked, waits out of band, or went
 * back to a 2026-07-28 client as the call's result.
 */
export const REFUSING_OUTCOMES: ReadonlySet<string> = new Set([
  "refuse",
  "ask-declined",
  "ask-cancelled",
  "ask-unavailable",
  "ask-too-long",
  "ask-failed",
  "ask-pending",
  "ask-input-required",
]);

/**
 * The id a `decision` names: a string or number, else undefined. The relay records a call it
 * could not read (not JSON, a CR inside) under the id `""`, so `""` names no call here.
 */
export function decisionId(v: unknown): JsonRpcId | undefined {
  const id = usableId(v);
  return id === "" ? undefined : id;
}
