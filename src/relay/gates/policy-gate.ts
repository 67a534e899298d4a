import type { Gate, GateAnswer, HeldRequest, JudgeContext, ObservedResponse } from "../../core/gate/gate.js";
import { outcomeFor } from "../../core/gate/levels.js";
import { askText, type RefusalKind, refusalText } from "../../core/gate/refusal-text.js";
import type { ScanOptions, SessionJudgeApi } from "../../core/gate/session-judge.js";
import type { Decision, Level } from "../../core/types.js";

/** What the `decision` event says happened to the call. */
type Recorded =
  | "forward"
  | "forward-noted"
  | "refuse"
  | "ask-accepted"
  | "ask-declined"
  | "ask-cancelled"
  | "ask-unavailable"
  | "ask-failed";

const MAX_LOGGED_EFFECTS = 64;

function subjectOf(req: { method: string; params: unknown }): string {
  const p =
    req.params !== null && typeof req.params === "object" ? (req.params as Record<string, unknown>) : {};
  if (req.method === "resources/read" && typeof p["uri"] === "string") return p["uri"];
  return typeof p["name"] === "string" ? p["name"] : req.method;
}

/**
 * The policy engine as a relay gate: judge → outcome at the level → forward, note, ask or refuse.
 * Every non-allow decision is recorded (at observe too) BEFORE the answer is returned, so a
 * refusal is in the log before the client can see it.
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
}): Gate {
  const { judge, level, policySource, forgetFiles } = opts;
  const announced = new Set<string>();
  // Ids (typed, so 1 and "1" differ) of forwarded calls that may change files, not yet answered.
  const changing = new Set<string>();
  const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;
  const forward = (req: HeldRequest, decision: Decision): GateAnswer => {
    if (forgetFiles !== undefined && decision.effects.some((e) => e.operation !== "read")) {
      changing.add(idKey(req.id));
      forgetFiles();
    }
    return { action: "forward", decision };
  };

  const record = (ctx: JudgeContext, req: HeldRequest, tool: string, d: Decision, outcome: Recorded) => {
    const data: Record<string, unknown> = {
      id: req.id,
      method: req.method,
      tool,
      verdict: d.verdict,
      outcome,
      rule: d.rule ?? null,
      reason: d.reason,
      // A call may name thousands of harmless paths; the deciding effect is first (decide.ts).
      effects: d.effects.slice(0, MAX_LOGGED_EFFECTS),
      tainted: d.tainted,
      level,
    };
    if (d.effects.length > MAX_LOGGED_EFFECTS) data["effectsOmitted"] = d.effects.length - MAX_LOGGED_EFFECTS;
    if (d.unjudgeable !== undefined) data["unjudgeable"] = d.unjudgeable;
    ctx.record("decision", data);
  };

  const refuse = (kind: RefusalKind, req: HeldRequest, tool: string, decision: Decision): GateAnswer => ({
    action: "refuse",
    decision,
    text: refusalText({ kind, tool, method: req.method, params: req.params, decision, level, policySource }),
  });

  return {
    recordsOnly: level === "observe",
    async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
      const decision = judge.judge(req.method, req.params, req.problem);
      const tool = subjectOf(req);
      if (decision.verdict === "allow") {
        // A batch member: the relay keeps the record, and writes it if the batch is refused.
        if ("recordAllows" in ctx && ctx.recordAllows === true) record(ctx, req, tool, decision, "forward");
        return forward(req, decision);
      }
      // An unjudgeable call carries "deny", so enforce and strict refuse it and observe records it.
      const outcome = outcomeFor(level, decision.verdict);
      switch (outcome) {
        case "forward":
          record(ctx, req, tool, decision, "forward");
          return forward(req, decision);
        case "forward-noted": {
          record(ctx, req, tool, decision, "forward-noted");
          const key = `${tool}\u0000${decision.rule ?? ""}`;
          if (!announced.has(key)) {
            announced.add(key);
            ctx.announce(
              `allowed but noted: ${decision.reason} (rule "${decision.rule ?? "none"}", level ${level})`,
            );
          }
          return forward(req, decision);
        }
        case "refuse":
          record(ctx, req, tool, decision, "refuse");
          return refuse(decision.unjudgeable !== undefined ? "unjudgeable" : "deny", req, tool, decision);
        case "ask": {
          if (ctx.ask === undefined) {
            record(ctx, req, tool, decision, "ask-unavailable");
            return refuse("cannot-ask", req, tool, decision);
          }
          let answer: "accept" | "decline" | "cancel" | "failed";
          try {
            answer = await ctx.ask(
              askText({ tool, method: req.method, params: req.params, decision, level, policySource }),
            );
          } catch {
            answer = "failed";
          }
          if (answer === "accept") {
            record(ctx, req, tool, decision, "ask-accepted");
            return forward(req, decision);
          }
          record(
            ctx,
            req,
            tool,
            decision,
            answer === "failed" ? "ask-failed" : answer === "decline" ? "ask-declined" : "ask-cancelled",
          );
          return refuse("declined", req, tool, decision);
        }
      }
    },

    observe(seen: ObservedResponse, ctx: JudgeContext): void {
      if (changing.delete(idKey(seen.request.id))) forgetFiles?.();
      const scan: ScanOptions = {
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
  };
}
