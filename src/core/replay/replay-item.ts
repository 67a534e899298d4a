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
