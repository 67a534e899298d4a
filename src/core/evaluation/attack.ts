// Attack recall: each scenario's messages go, in order, through the same session judge the relay
// uses (taint included) and through pin state when the scenario has a lock. A scenario counts as
// stopped at a level only if its harmful message is refused there.
import { JUDGED_METHODS } from "../wire/judged-methods.js";
import { outcomeFor, type Outcome } from "../gate/levels.js";
import type { JudgeEnvironment } from "../policy/api.js";
import { pinTool } from "../pins/pin.js";
import { PinState } from "../pins/state.js";
import { classify, idKey, isRecord, toolOf } from "../replay/messages.js";
import type { SessionJudgeApi } from "../gate/session-judge.js";
import { parseStrictJson } from "../json/strict-json.js";
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
  const pins = s.approved ? new PinState(approvedPins(s, s.approved)) : undefined;
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
    let value: unknown;
    let problem: string | undefined;
    if ("c2s_raw" in m) {
      const strict = parseStrictJson(m.c2s_raw);
      if (!strict.ok) problem = strict.error;
      try {
        value = JSON.parse(m.c2s_raw);
      } catch {
        // stays undefined: classify says it is not a message
      }
    } else {
      value = m.c2s; // classify and the judge do not read "jsonrpc"
    }
    let msg = classify(value);
    if (Array.isArray(value)) {
      // A batch: the judged member is the call; a malformed sibling makes it unjudgeable.
      const members = value.map(classify);
      const call = members.find((x) => x.kind === "request" && JUDGED_METHODS.has(x.method));
      if (call) msg = call;
      if (members.some((x) => x.kind === "other")) problem ??= "a batch with a malformed member";
    }
    if (msg.kind !== "request" || !JUDGED_METHODS.has(msg.method)) {
      if (msg.kind === "request") {
        pending.set(idKey("c2s", msg.id), { method: msg.method, params: msg.params });
        refused.delete(idKey("c2s", msg.id));
      }
      if (harmful) {
        const what = msg.kind === "request" || msg.kind === "notification" ? msg.method : msg.kind;
        result = {
          ...base,
          stopped: false,
          outcome: "not judged",
          reason: `the relay does not judge ${what} messages`,
          tainted: judge.tainted,
        };
      }
      continue;
    }
    const tool = toolOf(msg.method, msg.params);
    const pin = pins && tool !== undefined ? pins.checkCall(tool) : { ok: true as const };
    const decision: Decision = pin.ok
      ? judge.judge(msg.method, msg.params, problem)
      : { verdict: "deny", rule: "pin", reason: pin.reason, effects: [], tainted: judge.tainted };
    let outcome: ScenarioRun["outcome"] = outcomeFor(level, decision.verdict);
    if (outcome === "ask") outcome = canAsk ? "asked" : "refuse";
    const key = idKey("c2s", msg.id);
    // A refusal is of this call only: a later call may reuse its id and be answered.
    if (outcome === "refuse") refused.add(key);
    else refused.delete(key);
    pending.set(key, { method: msg.method, params: msg.params });
    if (harmful) {
      result = {
        ...base,
        stopped: outcome === "refuse",
        outcome,
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
