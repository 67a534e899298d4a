import type {
  AskHow,
  Gate,
  GateAnswer,
  GateOutcome,
  HeldRequest,
  JudgeContext,
  ObservedResponse,
} from "../../core/gate/gate.js";
import { effectKey } from "../../core/gate/effect-key.js";
import { loggedEffect } from "../../core/gate/logged-effect.js";
import { gateAnswer } from "../../core/gate/pipeline.js";
import type { ScanOptions, SessionJudgeApi } from "../../core/gate/session-judge.js";
import { serverMessageAsAnswer } from "../../core/wire/server-message.js";
import type { Decision, Level } from "../../core/types.js";
import type { GrantPlace, ProjectGrantBook } from "./project-grant-book.js";

const MAX_LOGGED_EFFECTS = 64;

function subjectOf(req: { method: string; params: unknown }): string {
  const p =
    req.params !== null && typeof req.params === "object" ? (req.params as Record<string, unknown>) : {};
  if (req.method === "resources/read" && typeof p["uri"] === "string") return p["uri"];
  return typeof p["name"] === "string" ? p["name"] : req.method;
}

/**
 * The policy engine as a relay gate: judge, then the shared pipeline (src/core/gate/pipeline.ts)
 * gives the outcome at the level: forward, note, ask or refuse.
 * Every non-allow decision, and every allow with effects, is recorded (at observe too) BEFORE
 * the answer is returned, so a refusal is in the log before the client can see it.
 */
export function createPolicyGate(opts: {
  judge: SessionJudgeApi;
  level: Level;
  policySource: string;
  /**
   * Drop what the path resolver remembers: called when a call that may change the file system
   * (a write or a command) is forwarded, and again when it is answered, so that a link it moved
   * into place is seen by the next call's judgement (docs/decisions/0012).
   */
  forgetFiles?: () => void;
  /** Work to finish before a request is judged (loading the bash grammar for an exec call). */
  prepare?: (req: HeldRequest, ctx: JudgeContext) => Promise<void>;
  /** "Always in this project" (decision 0134): the grants, and the server as they name it. */
  projectGrants?: { book: ProjectGrantBook; server: string };
}): Gate {
  const { judge, level, policySource, forgetFiles, prepare, projectGrants } = opts;
  const announced = new Set<string>();
  // Ids (typed, so 1 and "1" differ) of forwarded calls that may change files, not yet answered.
  const changing = new Set<string>();
  const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;
  const forward = (req: HeldRequest, answer: GateAnswer): GateAnswer => {
    if (forgetFiles !== undefined && answer.decision?.effects.some((e) => e.operation !== "read")) {
      changing.add(idKey(req.id));
      forgetFiles();
    }
    return answer;
  };

  const record = (
    ctx: JudgeContext,
    req: HeldRequest,
    tool: string,
    d: Decision,
    outcome: GateOutcome,
    asked: AskHow | undefined,
    grant?: GrantPlace,
  ) => {
    const data: Record<string, unknown> = {
      id: req.id,
      method: req.method,
      tool,
      verdict: d.verdict,
      outcome,
      rule: d.rule ?? null,
      reason: d.reason,
      // A call may name thousands of harmless paths; the deciding effect is first (decide.ts).
      // Each is cut to a bounded length: the frame record holds the call whole.
      effects: d.effects.slice(0, MAX_LOGGED_EFFECTS).map(loggedEffect),
      tainted: d.tainted,
      level,
    };
    if (d.effects.length > MAX_LOGGED_EFFECTS) data["effectsOmitted"] = d.effects.length - MAX_LOGGED_EFFECTS;
    if (d.unjudgeable !== undefined) data["unjudgeable"] = d.unjudgeable;
    if (asked !== undefined) data["asked"] = { ...asked };
    if (grant !== undefined) data["grant"] = { ...grant };
    ctx.record("decision", data);
  };

  /** Records the call's outcome, notes a confirm at enforce once, and lets go of files. */
  const settled = (ctx: JudgeContext, req: HeldRequest, tool: string, answer: GateAnswer): GateAnswer => {
    if (answer.action === "ask")
      return {
        ...answer,
        tool,
        settle: async (reply, how) => settled(ctx, req, tool, await answer.settle(reply, how)),
      };
    const decision = answer.decision as Decision;
    // An allowed call that names paths, commands or destinations is recorded with them, so that
    // replay can show what it touched (decision 0094). A batch member's allow is recorded even
    // without effects: the relay keeps it until the batch's fate is known.
    if (decision.verdict !== "allow" || decision.effects.length > 0 || ctx.recordAllows === true)
      record(ctx, req, tool, decision, answer.outcome ?? "forward", answer.asked);
    if (answer.outcome === "forward-noted") {
      const key = `${tool}\u0000${decision.rule ?? ""}`;
      if (!announced.has(key)) {
        announced.add(key);
        ctx.announce(
          `allowed but noted: ${decision.reason} (rule "${decision.rule ?? "none"}", level ${level})`,
        );
      }
    }
    return answer.action === "forward" ? forward(req, answer) : answer;
  };

  /**
   * The project grant for this exact effect, where the verdict is a confirm at enforce or strict.
   * Only a confirm: a grant never turns a deny (or an unjudgeable call) into an allow.
   */
  const grantFor = (req: HeldRequest, tool: string, d: Decision): GrantPlace | undefined => {
    if (projectGrants === undefined || level === "observe" || d.verdict !== "confirm") return undefined;
    const key = effectKey({ server: projectGrants.server, method: req.method, tool, effects: d.effects });
    return projectGrants.book.find(key);
  };

  return {
    recordsOnly: level === "observe",
    async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
      if (prepare !== undefined) await prepare(req, ctx);
      const decision = judge.judge(req.method, req.params, req.problem);
      const tool = subjectOf(req);
      const grant = grantFor(req, tool, decision);
      if (grant !== undefined) {
        record(ctx, req, tool, decision, "forward", undefined, grant);
        if (!announced.has(`grant:${grant.line}`)) {
          announced.add(`grant:${grant.line}`);
          ctx.announce(`allowed by your grant for this project: ${grant.file}:${grant.line}`);
        }
        return forward(req, { action: "forward", outcome: "forward", decision, wouldRefuse: false });
      }
      const facts = { tool, method: req.method, params: req.params, decision, level, policySource };
      return settled(ctx, req, tool, gateAnswer(facts, ctx.canAsk === true));
    },

    observe(seen: ObservedResponse, ctx: JudgeContext): void {
      if (changing.delete(idKey(seen.request.id))) forgetFiles?.();
      const scan: ScanOptions = {
        ...(seen.scanCut === true ? { frameCut: true } : {}),
        // No cap is silent: text past the scan budget is recorded with the call it answers.
        onPartial: (extent) => ctx.record("scan-partial", { id: seen.request.id, ...extent }),
      };
      const events = judge.observe(
        { method: seen.request.method, params: seen.request.params },
        seen.response,
        scan,
      );
      for (const ev of events)
        ctx.record("taint", { id: seen.request.id, by: ev.by, reason: ev.reason, why: ev.why });
    },

    /**
     * Server notifications and requests carry text to the user or the model too (a log line, a
     * progress message, a sampling prompt, a question): their params are scanned like an answer
     * (docs/decisions/0070-a-cut-scan-taints.md).
     */
    observeServerMessage(msg: Record<string, unknown>, ctx: JudgeContext): void {
      const method = typeof msg["method"] === "string" ? msg["method"] : "(server message)";
      const seen = serverMessageAsAnswer(method, msg["params"]);
      if (seen === undefined) return;
      const id = "id" in msg ? msg["id"] : null;
      const scan: ScanOptions = {
        onPartial: (extent) => ctx.record("scan-partial", { id, method, ...extent }),
      };
      for (const ev of judge.observe(seen.request, seen.response, scan))
        ctx.record("taint", { id, method, by: ev.by, reason: ev.reason, why: ev.why });
    },
  };
}
