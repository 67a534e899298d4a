import type { CallChannel } from "../gate/ask-channel.js";
import type { Verdict } from "../types.js";
import type { Flagged } from "./benign.js";
import type { CommandKind } from "./command-kind.js";

// What eval adds up while it rebuilds logged sessions (session-rebuild.ts, call-rejudge.ts), and
// the levels it rebuilds them at. benign.ts starts the counts and reads them into its report.

export type RebuiltLevel = "enforce" | "strict";
export const REBUILT_LEVELS: readonly RebuiltLevel[] = ["enforce", "strict"];

/** Calls and blocks of each kind of command; `other` again by program, so a reader sees what it holds. */
export interface KindCounts {
  kinds: Record<CommandKind, { calls: number; blocked: number }>;
  other: Record<string, { calls: number; blocked: number }>;
}

/** What eval adds up over every session (see BenignReport for the meaning of each). */
export interface Counts {
  calls: number;
  verdicts: Record<Verdict, number>;
  strictVerdicts: Record<Verdict, number>;
  rules: Record<string, { confirm: number; deny: number }>;
  flagged: Flagged[];
  blocks: Record<RebuiltLevel, number>;
  /**
   * Confirms at strict by how they would be put: asked (in the chat, in a dialog) or refused
   * (out of band, none, and `flood`: a dialog question over the flood limit, decision 0127).
   */
  asks: Record<CallChannel | "flood", number>;
  unjudged: { tooLarge: number };
  answers: { noRequest: number; tooLarge: number; early: number };
  /** Commands judged at strict in an untainted session, by kind, and blocked there (issue 19). */
  kinds: KindCounts;
}
