// What a transcript is made of: one item per line, a session of them with its summary.
import type { JsonRpcId } from "../types.js";
import type { SessionSummary } from "./summary.js";

export type Marker =
  | "REFUSED"
  | "ASK"
  | "NOTED"
  | "OBSERVED"
  | "TAINT"
  | "PIN"
  | "STDERR"
  | "GAP"
  | "INVALID"
  | "UNASKED"
  | "UNMATCHED"
  | "EARLY";

/**
 * The mark that starts a marked line, one per kind of thing (decision 0095): a refusal, a
 * question, a notice, taint, a pin, the server's stderr and the log's own troubles each look
 * different, so that a reader's eye (and grep) can tell them apart.
 */
export const MARKS: Record<Marker | "UNREADABLE", string> = {
  REFUSED: "!!",
  UNASKED: "!!",
  ASK: "??",
  NOTED: "~~",
  OBSERVED: "~~",
  TAINT: "^^",
  PIN: "##",
  STDERR: "2>",
  GAP: "**",
  INVALID: "**",
  UNMATCHED: "**",
  EARLY: "**",
  UNREADABLE: "**",
};

/** One transcript line. Strings are as logged (unescaped); formatting escapes them. */
export interface ReplayItem {
  line: number;
  /** The part of a rotated session the line is in, when it is not the first. */
  part?: number;
  /** Milliseconds since the session's first record; null when the time is unreadable. */
  offsetMs: number | null;
  kind: "request" | "notification" | "response" | "frame" | "stderr" | "event" | "invalid" | "exit";
  dir?: "c2s" | "s2c";
  marker?: Marker;
  method?: string;
  id?: JsonRpcId;
  tool?: string;
  /** For responses: the method of the request answered, when known. */
  answers?: string;
  latencyMs?: number;
  /** "result", "error", "tool-error" or "refusal" for responses. */
  outcome?: string;
  batch?: true;
  /** Free text: an error message, a stderr line, an event's facts. */
  detail?: string;
  /**
   * For a call: what the relay judged it would touch, canonical (`write /home/u/p/a.md`,
   * `exec "npm test"`), from the call's `decision` record. Only the first few are kept.
   */
  effects?: string[];
  /** How many more effects the decision named than `effects` holds. */
  moreEffects?: number;
  /** For a decision: its verdict and rule. */
  verdict?: string;
  rule?: string;
  /** Set on every line about a call effectgate refused: its request, the refusal, the answer. */
  refused?: true;
  /** For a refusal: the text effectgate answered with, which says what the user can do. */
  remedy?: string;
  /** For a response the `--url` bridge wrote in the server's place (decision 0114). */
  bridge?: true;
}

export interface ReplaySession {
  sid: string;
  start: string | null;
  header: {
    server: string[];
    name: string | null;
    cwd: string;
    platform: string;
    level: string;
    from: string;
    policy: string | null;
  } | null;
  items: ReplayItem[];
  summary: SessionSummary;
}
