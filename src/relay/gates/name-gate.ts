import type { Gate, GateAnswer, HeldRequest, JudgeContext, ObservedResponse } from "../../core/gate/gate.js";
import { pinCallAnswer } from "./pin-call-refusal.js";
import { foldedValues } from "../../core/json/key-fold.js";
import { escapeForTerminal } from "../../core/pins/escape.js";
import { LookAlikes, lookAlikeSentence, withCodePoints } from "../../core/pins/lookalike.js";
import type { Level } from "../../core/types.js";

/**
 * Tool names that look alike (decision 0092), with or without a lock. Every `tools/list` page is
 * read for names; a call to a name another listed name looks like is refused at enforce and
 * strict (recorded at observe) unless the lock pins that exact name. The list itself is relayed
 * unchanged, as the pin gate relays it (decision 0027).
 */
export function createNameGate(opts: {
  level: Level;
  /** The names the lock's entry approves, when a lock is in use. */
  pinned?: ReadonlySet<string>;
  /** The lock in use, for the refusal's words. */
  lockPath?: string;
  /** How to pin a name, for the refusal: the approve command line. */
  approve: string;
}): Gate {
  const names = new LookAlikes(opts.pinned);
  const isObj = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  return {
    recordsOnly: opts.level === "observe",
    async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
      if (req.method !== "tools/call" || !isObj(req.params)) return { action: "forward" };
      const tool = req.params["name"];
      if (typeof tool !== "string") return { action: "forward" };
      const check = names.checkCall(tool);
      if (check.ok) return { action: "forward" };
      // A look-alike is refused as a pin is.
      return pinCallAnswer(req, ctx, {
        tool,
        rule: "pins look-alike",
        reason: check.reason,
        level: opts.level,
        policySource: opts.lockPath ?? "none (no --lock given)",
        next: `pin the tool you mean by its exact name with: ${opts.approve}`,
      });
    },
    observe(seen: ObservedResponse, ctx: JudgeContext): void {
      if (seen.request.method !== "tools/list" || seen.cut === true) return;
      const result = seen.response["result"];
      if (!isObj(result)) return;
      // Every reading a client may take of the list (`Tools` for a Go client), as the pin gate reads it.
      for (const tools of foldedValues(result, "tools")) {
        if (!Array.isArray(tools)) continue;
        for (const group of names.observeList(tools)) {
          const sentence = lookAlikeSentence(group);
          // `tool` is for replay's PIN line: the names with their code points, which print apart.
          const tool = group.map(withCodePoints).join(", ");
          ctx.record("pin", {
            kind: "look-alike",
            tool,
            tools: group,
            severity: "high",
            sentences: [sentence],
          });
          ctx.announce(
            `pin: [high] ${escapeForTerminal(sentence)}; calls to them are refused unless pinned by exact name`,
          );
        }
      }
    },
  };
}
