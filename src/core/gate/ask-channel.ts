/**
 * How effectgate asks a client at strict, from what the client declared: in a 2025 session
 * through its own `elicitation/create`, in a 2026-07-28 session in the call's result
 * (`input_required`), else in a desktop dialog where the relay offers one (decision 0126), else
 * out of band (`effectgate allow`). The relay decides per call from the same facts; `eval` and
 * `effectgate status` read them from the session's header and handshake records (docs/asking.md,
 * decision 0133).
 */
import { isRecord } from "../wire/jsonrpc.js";

/** Every channel, in the order strict tries them. */
export const ASK_CHANNELS = ["elicitation", "input_required", "dialog", "out of band"] as const;
export type AskChannel = (typeof ASK_CHANNELS)[number];

/**
 * How a question at strict could be put in a relay, for its session's header (docs/log-format.md
 * `ask`): the chat's channels (the client's handshake says whether it takes them), a dialog when
 * dialogs are on and this machine has a tool (`dialog`: the tool, or why none), and out of band.
 */
export function offeredAsk<K extends string>(
  dialog: { tool: K } | { none: string } | undefined,
): { channels: AskChannel[]; dialog?: K; noDialog?: string } {
  if (dialog !== undefined && "tool" in dialog) return { channels: [...ASK_CHANNELS], dialog: dialog.tool };
  const channels = ASK_CHANNELS.filter((c) => c !== "dialog");
  return dialog === undefined ? { channels } : { channels, noDialog: dialog.none };
}

/**
 * Whether a session's header (docs/log-format.md, `ask`) says its relay offered a desktop
 * dialog. A header without `ask` is from an earlier version, which logged no such fact: no.
 */
export function offersDialog(header: { ask?: { channels: readonly string[] } } | undefined): boolean {
  return header?.ask?.channels.includes("dialog") === true;
}

/** A 2026-07-28 client's capabilities declare form elicitation (empty means form, as in 2025-11-25). */
export function declaresForm(capabilities: unknown): boolean {
  const e = isRecord(capabilities) ? capabilities["elicitation"] : undefined;
  if (!isRecord(e)) return false;
  return isRecord(e["form"]) || !("url" in e);
}

/**
 * The channel a session's handshake record (docs/log-format.md, `handshake`) implies; a client
 * that cannot be asked in its chat gets a dialog when the relay offered one (`dialog`).
 */
export function askChannelOf(handshake: Record<string, unknown>, dialog = false): AskChannel {
  const caps = handshake["clientCapabilities"];
  const chat =
    handshake["era"] === "modern"
      ? declaresForm(caps) && "input_required"
      : isRecord(caps) && isRecord(caps["elicitation"]) && "elicitation";
  return chat || (dialog ? "dialog" : "out of band");
}

/** How strict puts one call's question, or `none` when it cannot be put at all. */
export type CallChannel = AskChannel | "none";

/**
 * The channel of one confirm at strict, as the relay picks it: a 2025 client that declared
 * elicitation is asked with `elicitation/create`; a 2026-07-28 call alone in its frame whose
 * `_meta` declares form elicitation is asked in its result; any other is asked in a desktop
 * dialog when the relay offers one, else waits out of band. A question too long to show whole
 * is not put (ask-text.ts). `eval` and `status` read it here.
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
  /** The relay offered a desktop dialog (dialogs on, and a tool this machine can show). */
  dialog: boolean;
}): CallChannel {
  if (!call.fits) return "none";
  const chat = call.modern
    ? call.alone && declaresForm(call.capabilities) && "input_required"
    : call.legacyCanElicit && "elicitation";
  return chat || (call.dialog ? "dialog" : "out of band");
}

/** Whether a question put through `channel` reaches a person (the rest are refusals). */
export const isAsked = (channel: CallChannel): boolean => channel !== "out of band" && channel !== "none";
