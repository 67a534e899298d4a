/**
 * One logged call judged again as enforce and as strict would have judged it, and counted for
 * eval's report: the verdicts, the blocks, how a question at strict would have been put (in the
 * chat, in a desktop dialog, or refused), and the row of a flagged call.
 */
import { channelFor, isAsked } from "../gate/ask-channel.js";
import { askQuestion } from "../gate/ask-text.js";
import { DialogLimiter } from "../gate/dialog-limit.js";
import { requestCapabilities } from "../gate/input-required.js";
import { outcomeFor, type Outcome } from "../gate/levels.js";
import type { SessionJudgeApi } from "../gate/session-judge.js";
import { effectText } from "../replay/effect-text.js";
import { isRecord, toolOf } from "../replay/messages.js";
import type { Decision } from "../types.js";
import type { JudgedCall } from "../wire/client-frame.js";
import type { Flagged } from "./benign.js";
import { commandKind, otherProgram } from "./command-kind.js";
import type { Counts, RebuiltLevel } from "./counts.js";

export class CallRejudge {
  private canAsk = false;
  /** The relay's flood limit on dialogs, per session as in the relay; the log's times are its clock. */
  private readonly dialogs = new DialogLimiter();

  constructor(
    private readonly sid: string,
    private readonly judges: Record<RebuiltLevel, SessionJudgeApi>,
    private readonly counts: Counts,
    private readonly opts: { countFrom?: number; withParams?: boolean; dialog?: boolean },
  ) {}

  /** Judge one call at each level; says which levels refuse it. */
  judge(
    file: string,
    line: number,
    t: string,
    call: JudgedCall,
    alone: boolean,
  ): Record<RebuiltLevel, boolean> {
    const c = this.counts;
    const d = {
      enforce: this.judges.enforce.judge(call.method, call.params, call.problem),
      strict: this.judges.strict.judge(call.method, call.params, call.problem),
    };
    const out: Record<RebuiltLevel, Outcome> = {
      enforce: outcomeFor("enforce", d.enforce.verdict),
      strict: outcomeFor("strict", d.strict.verdict),
    };
    // A question reaches a person in the chat (elicitation, input_required) or in a desktop
    // dialog, as in the relay (ask-channel.ts); a benign session's user says yes at once. Out of
    // band, the call is refused with an id; so is a dialog question over the flood limit.
    const picked =
      out.strict === "ask"
        ? channelFor({
            modern: call.modern,
            capabilities: requestCapabilities(call.params),
            legacyCanElicit: this.canAsk,
            alone,
            fits: askQuestion({
              method: call.method,
              params: call.params,
              decision: d.strict,
              policySource: "",
            }).ok,
            dialog: this.opts.dialog === true,
          })
        : undefined;
    const channel = picked === "dialog" ? this.dialogTurn(t) : picked;
    const asked = channel !== undefined && channel !== "flood" && isAsked(channel);
    const refused = {
      enforce: out.enforce === "refuse",
      strict: out.strict === "refuse" || (out.strict === "ask" && !asked),
    };
    if (this.opts.countFrom !== undefined && !(Date.parse(t) >= this.opts.countFrom)) return refused;
    c.calls += 1;
    c.verdicts[d.enforce.verdict] += 1;
    c.strictVerdicts[d.strict.verdict] += 1;
    if (out.enforce === "refuse") c.blocks.enforce += 1;
    // Every confirm at strict interrupts: a refusal, or a question to the user (decision 0033).
    if (out.strict !== "forward") c.blocks.strict += 1;
    if (channel !== undefined) c.asks[channel] += 1;
    if (!d.strict.tainted) this.countKind(d.strict, out.strict !== "forward");
    if (d.enforce.verdict !== "allow") {
      const row = (c.rules[d.enforce.rule ?? "(no rule)"] ??= { confirm: 0, deny: 0 });
      row[d.enforce.verdict] += 1;
    }
    if (d.enforce.verdict !== "allow" || d.strict.verdict !== "allow")
      c.flagged.push({
        ...this.flaggedRow(file, line, t, call, d.enforce, d.strict),
        outcomes: { enforce: out.enforce, strict: refused.strict ? "refuse" : out.strict },
      });
    return refused;
  }

  /** Issue 19's figure: an untainted command at strict, by kind, and whether strict stopped it. */
  private countKind(d: Decision, blocked: boolean): void {
    const kind = commandKind(d.effects);
    if (kind === undefined) return;
    const add = (row: { calls: number; blocked: number }): void => {
      row.calls += 1;
      if (blocked) row.blocked += 1;
    };
    add(this.counts.kinds.kinds[kind]);
    if (kind === "other")
      add((this.counts.kinds.other[otherProgram(d.effects)] ??= { calls: 0, blocked: 0 }));
  }

  /** A dialog opens at `t` unless the flood limit refuses it; it is answered at once. */
  private dialogTurn(t: string): "dialog" | "flood" {
    const turn = this.dialogs.take(Date.parse(t));
    if (!turn.ok) return "flood";
    this.dialogs.close();
    return "dialog";
  }

  private flaggedRow(
    file: string,
    line: number,
    t: string,
    call: JudgedCall,
    d: Decision,
    strict: Decision,
  ): Omit<Flagged, "outcomes"> {
    const effect = d.effects[0] ?? strict.effects[0];
    return {
      file,
      line,
      sid: this.sid,
      t,
      method: call.method,
      tool: toolOf(call.method, call.params),
      verdict: d.verdict,
      rule: d.rule,
      reason: d.reason,
      tainted: d.tainted,
      ...(strict.verdict !== d.verdict ? { strict: strict.verdict } : {}),
      ...(effect !== undefined ? { effect: effectText(effect) ?? effect.spelled } : {}),
      ...(this.opts.withParams === true ? { params: call.params } : {}),
    };
  }

  /** The client's `initialize`: whether it takes elicitation (questions in the chat). */
  noteInitialize(params: unknown): void {
    const caps = isRecord(params) ? params["capabilities"] : undefined;
    this.canAsk = isRecord(caps) && caps["elicitation"] !== undefined;
  }
}
