// Contract for the policy engine's per-session judge. The relay's policy gate and `eval`
// both drive this one interface, so a verdict in eval is the verdict the relay would give.
import type { Decision } from "../types.js";

export interface TaintEvent {
  /** The tool (or method) whose output marked the session. */
  by: string;
  /**
   * `unscanned`: the content scan stopped short, and what it did not read counts as untrusted.
   * `rug-pull`: the server showed a tool or instructions that differ from the lock's.
   */
  reason: "source" | "content" | "url" | "unscanned" | "rug-pull";
  why: string;
}

/** How far the content scan read a response: taint/scan-extent.ts. */
export interface PartialScan {
  /** Characters of the response's strings scanned, of how many. */
  scanned: number;
  of: number;
  /** Revealed layers (decoded or hidden text) left out once their budget was spent. */
  layersLeft: number;
  /** Windows of text whose reveal stopped at its caps (64 layers, 3 rounds) with more to reveal. */
  revealCapped: number;
  /** The frame was cut for reading before the scan's share of it was kept (decision 0053). */
  frameCut?: true;
}

/** What the scan is told about the response, and who hears when it held more than the scan reads. */
export interface ScanOptions {
  /**
   * The frame was cut for reading (pass-through, docs/decisions/0053) before the scan's share of
   * it was kept: the scan may read less than the server sent, and cannot know it by counting.
   */
  frameCut?: boolean;
  /** Called once per response the scan did not read whole, before its taint is returned. */
  onPartial?: (extent: PartialScan) => void;
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
  /** Mark the session tainted from outside: shared taint, a rug-pull the pins saw, tests. */
  taint(): void;
}
