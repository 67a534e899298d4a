/**
 * How effectgate asks a client at strict, from what the client declared: in a 2025 session
 * through its own `elicitation/create`, in a 2026-07-28 session in the call's result
 * (`input_required`), else out of band (`effectgate allow`). The relay decides per call from the
 * same facts; `effectgate status` reads them from the session's handshake record (docs/asking.md).
 */
import { isRecord } from "../wire/jsonrpc.js";

export type AskChannel = "elicitation" | "input_required" | "out of band";

/** A 2026-07-28 client's capabilities declare form elicitation (empty means form, as in 2025-11-25). */
export function declaresForm(capabilities: unknown): boolean {
  const e = isRecord(capabilities) ? capabilities["elicitation"] : undefined;
  if (!isRecord(e)) return false;
  return isRecord(e["form"]) || !("url" in e);
}

/** The channel a session's handshake record (docs/log-format.md, `handshake`) implies. */
export function askChannelOf(handshake: Record<string, unknown>): AskChannel {
  const caps = handshake["clientCapabilities"];
  if (handshake["era"] === "modern") return declaresForm(caps) ? "input_required" : "out of band";
  return isRecord(caps) && isRecord(caps["elicitation"]) ? "elicitation" : "out of band";
}

/** How strict puts one call's question, or `none` when it cannot be put at all. */
export type CallChannel = AskChannel | "none";

/**
 * The channel of one confirm at strict, as the relay picks it: a 2025 client that declared
 * elicitation is asked with `elicitation/create`; a 2026-07-28 call alone in its frame whose
 * `_meta` declares form elicitation is asked in its result; any other waits out of band. A
 * question too long to show whole is not put (ask-text.ts). `eval` and `status` read it here.
 */
export function channelFor(call: {
  modern: boolean;
  /** The call's own client capabilities (2026-07-28 `_meta`); ignored for a 2025 call. */
  capabilities: unknown;
  /** A 2025 client declared elicitation in `initialize`. */
  legacyCanElicit: boolean;
  /** The call is the only one in its frame. */
  alone: boolean;
  /** Its question fits (ask-text.ts). */
  fits: boolean;
}): CallChannel {
  if (!call.fits) return "none";
  if (call.modern) return call.alone && declaresForm(call.capabilities) ? "input_required" : "out of band";
  return call.legacyCanElicit ? "elicitation" : "out of band";
}
