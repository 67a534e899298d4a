// Attack recall: each scenario's messages go, in order, through the same session judge the relay
// uses (taint included) and through pin state when the scenario has a lock. A scenario counts as
// stopped at a level only if its harmful message is refused there.
import { channelFor, isAsked, type AskChannel } from "../gate/ask-channel.js";
import { requestCapabilities } from "../gate/input-required.js";
import { JUDGED_METHODS } from "../wire/judged-methods.js";
import { outcomeFor, type Outcome } from "../gate/levels.js";
import type { JudgeEnvironment } from "../policy/api.js";
import { pinTool } from "../pins/pin.js";
import { PinState } from "../pins/state.js";
import { LookAlikes } from "../pins/lookalike.js";
import { classify, idKey, isRecord, toolOf } from "../replay/messages.js";
import { readClientFrame, type ClientFrame } from "../wire/client-frame.js";
import type { SessionJudgeApi } from "../gate/session-judge.js";
import type { Decision, Level } from "../types.js";
import { defaultMachine, type Scenario } from "./scenario.js";
import { mapResolver, syntheticProfile } from "./machine.js";
import type { ToolPin } from "../pins/pin.js";

/** Builds the session judge for one scenario run (the command closes over the policy). */
export type JudgeFactory = (env: JudgeEnvironment) => SessionJudgeApi;

export interface ScenarioRun {
  id: string;
  title: string;
  category: string;
  level: Level;
  stopped: boolean;
  /** What happened to the harmful message: an outcome, or "not judged". */
  outcome: Outcome | "not judged" | "asked";
  /** Where the harmful message's question was put, when it was asked (in the chat, or a dialog). */
  askedIn?: Exclude<AskChannel, "out of band">;
  verdict?: Decision["verdict"];
  rule?: string;
  reason: string;
  tainted: boolean;
}

export function judgeEnvironment(s: Scenario): JudgeEnvironment {
  const machine = defaultMachine(s.platform);
  const profile = syntheticProfile(s.platform, s.home ?? machine.home, s.cwd ?? machine.cwd, s.env);
  return { profile, resolver: mapResolver(s.platform, s.links), server: s.server.name };
}

function approvedPins(
  s: Scenario,
  approved: readonly Record<string, unknown>[],
): ReadonlyMap<string, ToolPin> {
  const map = new Map<string, ToolPin>();
  for (const tool of approved) {
    const r = pinTool(tool);
    if (!r.ok) throw new Error(`scenario ${s.id}: approved tool ${r.name}: ${r.error}`);
    map.set(r.pin.name, r.pin);
  }
  return map;
}

/** Whether the client in the scenario declared elicitation, so that "ask" reaches a person. */
function clientCanBeAsked(s: Scenario): boolean {
  for (const m of s.messages) {
    if ("c2s" in m && m.c2s["method"] === "initialize") {
      const params = m.c2s["params"];
      const caps = isRecord(params) ? params["capabilities"] : undefined;
      return isRecord(caps) && caps["elicitation"] !== undefined;
    }
  }
  return false;
}

/** Run one visible scenario at one level. */
export function runScenario(s: Scenario, level: Level, makeJudge: JudgeFactory): ScenarioRun {
  const judge = makeJudge(judgeEnvironment(s));
  const approved = s.approved ? approvedPins(s, s.approved) : undefined;
  const pins = approved ? new PinState(approved) : undefined;
  // The relay reads every listing for look-alike names, with a lock or without (decision 0092).
  const names = new LookAlikes(approved === undefined ? undefined : new Set(approved.keys()));
  const canAsk = clientCanBeAsked(s);
  const pending = new Map<string, { method: string; params: unknown }>();
  const refused = new Set<string>();
  const base = { id: s.id, title: s.title, category: s.category, level };
  let result: ScenarioRun | undefined;

  for (const m of s.messages) {
    if ("s2c" in m) {
      const msg = classify(m.s2c);
      if (msg.kind === "notification" && msg.method === "notifications/tools/list_changed")
        pins?.listChanged();
      if (msg.kind !== "response") continue;
      const key = idKey("c2s", msg.id);
      const req = pending.get(key);
      pending.delete(key);
      if (!req || refused.has(key)) continue; // a refused call never reached the server
      const body = msg.body["result"];
      if (req.method === "tools/list" && isRecord(body) && Array.isArray(body["tools"]))
        names.observeList(body["tools"]);
      if (req.method === "tools/list" && pins && isRecord(body) && Array.isArray(body["tools"])) {
        pins.observeList(body["tools"], {
          first: !isRecord(req.params) || req.params["cursor"] === undefined,
          last: body["nextCursor"] === undefined,
        });
      }
      if (JUDGED_METHODS.has(req.method)) judge.observe(req, msg.body);
      continue;
    }
    const harmful = m.harmful === true;
    // The relay's own reading of the frame (src/core/wire/client-frame.ts): a scenario's object
    // message is read as the line a client would write for it.
    const read = readClientFrame("c2s_raw" in m ? m.c2s_raw : JSON.stringify(m.c2s));
    const requests = read.kind === "parsed" ? read.requests : [];
    if (read.calls.length === 0) {
      for (const req of requests) {
        pending.set(idKey("c2s", req.id), { method: req.method, params: req.params });
        refused.delete(idKey("c2s", req.id));
      }
      if (harmful) {
        result = {
          ...base,
          stopped: false,
          outcome: "not judged",
          reason: `the relay does not judge ${notJudged(read)} messages`,
          tainted: judge.tainted,
        };
      }
      continue;
    }
    // Every judged call of the frame, in order; one refused call refuses the whole frame.
    let worst:
      { outcome: ScenarioRun["outcome"]; decision: Decision; askedIn?: ScenarioRun["askedIn"] } | undefined;
    for (const call of read.calls) {
      const tool = toolOf(call.method, call.params);
      const pinned = pins && tool !== undefined ? pins.checkCall(tool) : { ok: true as const };
      const alike =
        call.method === "tools/call" && tool !== undefined ? names.checkCall(tool) : { ok: true as const };
      const pin = pinned.ok ? alike : pinned;
      const decision: Decision = pin.ok
        ? judge.judge(call.method, call.params, call.problem)
        : { verdict: "deny", rule: "pin", reason: pin.reason, effects: [], tainted: judge.tainted };
      let outcome: ScenarioRun["outcome"] = outcomeFor(level, decision.verdict);
      let askedIn: ScenarioRun["askedIn"];
      // As in the relay (ask-channel.ts): asked in the chat, else in a dialog where the scenario's
      // relay offers one, else refused (out of band). A scenario has no flood: one harmful call.
      if (outcome === "ask") {
        const channel = channelFor({
          modern: call.modern,
          capabilities: requestCapabilities(call.params),
          legacyCanElicit: canAsk,
          alone: read.kind === "parsed" && read.members === undefined && read.calls.length === 1,
          fits: true,
          dialog: s.dialog === true,
        });
        if (isAsked(channel)) askedIn = channel as NonNullable<ScenarioRun["askedIn"]>;
        outcome = askedIn !== undefined ? "asked" : "refuse";
      }
      if (!worst || rank(outcome) > rank(worst.outcome))
        worst = { outcome, decision, ...(askedIn !== undefined ? { askedIn } : {}) };
    }
    const { outcome, decision, askedIn } = worst as NonNullable<typeof worst>;
    // A refusal is of this frame only: a later call may reuse its id and be answered.
    const tracked =
      read.kind === "parsed" && read.members
        ? requests
        : read.calls.map((c) => ({ method: c.method, id: c.id, params: c.params }));
    for (const req of tracked) {
      const key = idKey("c2s", req.id);
      if (outcome === "refuse") refused.add(key);
      else refused.delete(key);
      pending.set(key, { method: req.method, params: req.params });
    }
    if (harmful) {
      result = {
        ...base,
        stopped: outcome === "refuse",
        outcome,
        ...(askedIn !== undefined ? { askedIn } : {}),
        verdict: decision.verdict,
        rule: decision.rule,
        reason: decision.unjudgeable
          ? `${decision.reason} (unjudgeable: ${decision.unjudgeable})`
          : decision.reason,
        tainted: decision.tainted,
      };
    }
  }
  if (!result) throw new Error(`scenario ${s.id}: no harmful message was reached`);
  return result;
}

const RANK: Record<ScenarioRun["outcome"], number> = {
  "not judged": 0,
  forward: 1,
  "forward-noted": 2,
  asked: 3,
  ask: 3,
  refuse: 4,
};
function rank(o: ScenarioRun["outcome"]): number {
  return RANK[o];
}

/** What a frame without a judged call was, for the "not judged" reason. */
function notJudged(read: ClientFrame): string {
  if (read.kind === "not-json") return "unreadable";
  const m = read.message;
  return m.kind === "request" || m.kind === "notification" ? m.method : m.kind;
}
