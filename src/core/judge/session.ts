import { canonicalise as realCanonicalise } from "../paths/canonical.js";
import type { CompiledPolicy, JudgeEnvironment } from "../policy/api.js";
import type { SessionJudgeApi, TaintEvent } from "../gate/session-judge.js";
import type { Decision } from "../types.js";
import { taintFromResponse } from "../taint/observe.js";
import { type Explanation, explainCall } from "./decide.js";
import type { Canonicalise } from "./judge-effect.js";
import { rememberWrites } from "./models.js";
import { Planted } from "./planted.js";

export interface SessionJudgeOptions {
  /** Start tainted (`effectgate check --tainted`, or taint shared from elsewhere). */
  tainted?: boolean;
  /** Replaces the path canonicaliser (tests only). */
  canonicalise?: Canonicalise;
}

export interface SessionJudge extends SessionJudgeApi {
  /** The decision with the per-effect verdicts behind it. */
  explain(method: string, params: unknown, problem?: string): Explanation;
  /** Mark the session tainted from outside (shared taint, tests). */
  taint(): void;
}

/**
 * One session's judge: the only place verdicts are made, for the relay's gate, `eval` and
 * `check` alike. Taint is sticky: once the session has taken in untrusted content it stays so.
 */
export function createSessionJudge(
  policy: CompiledPolicy,
  env: JudgeEnvironment,
  opts: SessionJudgeOptions = {},
): SessionJudge {
  let tainted = opts.tainted === true;
  const canonicalise = opts.canonicalise ?? realCanonicalise;
  // Writes of calls let through, which the disk may not show yet (git's discovery counts them).
  const planted = new Planted(env.profile.platform);
  const explain = (method: string, params: unknown, problem?: string): Explanation =>
    explainCall({ policy, env, tainted, canonicalise, planted }, method, params, problem);
  return {
    get tainted() {
      return tainted;
    },
    explain,
    judge(method: string, params: unknown, problem?: string): Decision {
      const { decision, items } = explain(method, params, problem);
      if (decision.verdict !== "deny" && policy.runsLater.gitDirs !== "allow") rememberWrites(items, planted);
      return decision;
    },
    observe(request, response, scan): TaintEvent[] {
      const events = taintFromResponse(policy, env.server, request, response, scan);
      if (events.length > 0) tainted = true;
      return events;
    },
    taint() {
      tainted = true;
    },
  };
}
