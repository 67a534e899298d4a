import type { Decision, JsonRpcId } from "../types.js";

/**
 * The contract between the relay and whatever judges calls (policy engine, pins).
 * The relay holds every client→server request whose method is judged, asks the gate,
 * and either forwards the original bytes or answers the client itself with `refusal`.
 * Server responses are shown to the gate before they are forwarded, so taint and pin
 * state is updated before the client can send its next call.
 */

export interface HeldRequest {
  method: string;
  id: JsonRpcId;
  /** Parsed params; undefined when absent. */
  params: unknown;
  /**
   * Set by the relay when the frame cannot be judged as it stands: duplicate keys,
   * a malformed batch member, a non-object `arguments`, an unparseable frame that still
   * looks like a call. A gate must refuse such a request at enforce and strict.
   */
  problem?: string;
  /** 2026-07-28 era requests need `resultType` on any result effectgate writes. */
  modern: boolean;
}

/**
 * The user's reply to a question; `failed` when the question could not be put or answered;
 * `pending` when nobody could be asked in the client, so the question waits for
 * `effectgate allow ID` and the call is refused for now (docs/decisions/0105);
 * `input-required` when the question went back as the call's result (2026-07-28), so the answer
 * comes with the client's retry (docs/decisions/0123).
 */
export type AskReply = "accept" | "decline" | "cancel" | "failed" | "pending" | "input-required";

/** How a question was put and answered: for the decision record and the refusal's words. */
export interface AskHow {
  /**
   * `elicitation` (in the chat, legacy), `input_required` (in the chat, 2026-07-28: asked in the
   * result, answered by the retry), `grant` (an `effectgate allow` answered it), `session` (the
   * user said yes to this effect for the session), `dialog` (a desktop dialog, decision 0126),
   * or `pending`.
   */
  channel: "elicitation" | "input_required" | "grant" | "session" | "dialog" | "pending";
  /** Why the answer is not a yes, in a few words. */
  why?: string;
  /** The id a pending question waits under (`effectgate allow ID`), or the grant's id. */
  pendingId?: string;
}

/** What happened to a call, as its `decision` record says (docs/log-format.md). */
export type GateOutcome =
  | "forward"
  | "forward-noted"
  | "refuse"
  | "ask-accepted"
  | "ask-declined"
  | "ask-cancelled"
  | "ask-unavailable"
  | "ask-too-long"
  | "ask-failed"
  | "ask-pending"
  | "ask-input-required";

interface AnswerFacts {
  decision?: Decision;
  outcome?: GateOutcome;
  /**
   * The verdict is one enforce refuses (a deny, a failed pin), whatever happened at this level:
   * at observe the call goes on, and a batch it is in would have been refused whole (decision
   * 0066). Absent: false.
   */
  wouldRefuse?: boolean;
  /** How the question that settled this call was put and answered (strict only). */
  asked?: AskHow;
}

export type SettledAnswer =
  ({ action: "forward" } & AnswerFacts) | ({ action: "refuse"; text: string } & AnswerFacts);

/**
 * The gate wants the user's word before the call goes on. The relay puts `question` to the user
 * (in the chat, or out of band through `effectgate pending`) and hands the reply to `settle`, which says what
 * happens then; it may ask again. Only given when the context says someone can be asked.
 */
export type AskAnswer = {
  action: "ask";
  question: string;
  /** The tool, prompt name or resource URI asked about: with the effects, what a grant binds to. */
  tool?: string;
  settle(reply: AskReply, how?: AskHow): GateAnswer | Promise<GateAnswer>;
} & AnswerFacts;

export type GateAnswer = SettledAnswer | AskAnswer;

/** What the relay offers a gate while it judges. */
export interface JudgeContext {
  /**
   * Whether a question can be put at all: in the chat (the client declared elicitation), or out
   * of band (`effectgate pending` / `effectgate allow`). Absent: nobody can be asked.
   */
  canAsk?: boolean;
  /**
   * A member of a batch with other judged calls: record allowed calls too. The batch's fate
   * (refused whole when any member is) decides what happened to each, so the relay writes the
   * records once it is known (docs/decisions/0066).
   */
  recordAllows?: boolean;
  /** Record an event in the session log (written before anything is sent). */
  record: (ev: string, data: Record<string, unknown>) => void;
  /** A line for the human on stderr. */
  announce: (line: string) => void;
}

export interface ObservedResponse {
  /** The request it answers (method and params as sent by the client). */
  request: { method: string; id: JsonRpcId; params: unknown };
  /** The parsed response message (has `result` or `error`). */
  response: Record<string, unknown>;
  /**
   * It was cut for reading (a frame over the log's whole-frame limit in pass-through, its long
   * strings shortened or its deep structure cut short; docs/decisions/0052, 0053): what is read
   * of it is less than the server sent.
   */
  cut?: true;
  /**
   * Its structure was cut for memory before the content scan's share of it was kept (the
   * `frame-cut` says `beforeScan`): the scan may read less of it than the server sent.
   */
  scanCut?: true;
}

export interface Gate {
  /**
   * True when this gate only records: it never refuses, asks or holds a call (the observe
   * level). The relay then passes bytes on as they arrive, exactly like a bare pipe, and judges
   * and observes each frame right after it went on, in the order the frames crossed
   * (docs/decisions/0048-observe-passes-bytes-first.md).
   */
  readonly recordsOnly?: boolean;
  judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer>;
  /** Called for every correlated server response, before its bytes are forwarded. */
  observe?(seen: ObservedResponse, ctx: JudgeContext): void | Promise<void>;
  /** Called for every server→client request or notification, before it is forwarded. */
  observeServerMessage?(msg: Record<string, unknown>, ctx: JudgeContext): void | Promise<void>;
}

/** Whether nothing can be refused: no gate (checks off), or one that only records. */
export function nothingRefused(gate: Gate | undefined): boolean {
  return gate === undefined || gate.recordsOnly === true;
}
