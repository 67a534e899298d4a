// Contract for the policy engine's per-session judge. The relay's policy gate and `eval`
// both drive this one interface, so a verdict in eval is the verdict the relay would give.
import type { Decision } from "../types.js";

export interface TaintEvent {
  /** The tool (or method) whose output marked the session. */
  by: string;
  reason: "source" | "content" | "url";
  why: string;
}

/** Who hears when a response held more than the content scan reads. */
export interface ScanOptions {
  /**
   * Called with how many characters of the response's strings were scanned, of how many, how
   * many revealed layers (decoded or hidden text) were left out once their budget was spent, and
   * in how many windows of text the reveal stopped at its caps (64 layers, 3 rounds of decoding)
   * with more to reveal.
   */
  onPartial?: (extent: { scanned: number; of: number; layersLeft: number; revealCapped: number }) => void;
}

export interface SessionJudgeApi {
  /** Whether the session has taken in untrusted content. */
  readonly tainted: boolean;
  /** Judge one held request (tools/call, resources/read, prompts/get). Pure given the state. */
  judge(method: string, params: unknown, problem?: string): Decision;
  /**
   * Show the judge a response to an earlier request. Returns the taint events it caused
   * (empty when none); the session stays tainted afterwards.
   */
  observe(
    request: { method: string; params: unknown },
    response: Record<string, unknown>,
    scan?: ScanOptions,
  ): TaintEvent[];
}
