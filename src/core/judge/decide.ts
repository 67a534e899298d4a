import { canonicaliseOnce } from "./canonical-memo.js";
import type { SecretFiles } from "../secrets/fingerprints.js";
import type { ContainerKind } from "../effects/containers.js";
import type { ShellState } from "../commands/api.js";
import type { CommandSetup } from "../commands/setup.js";
import type { CompiledPolicy, JudgeEnvironment } from "../policy/api.js";
import { pathRules, ruleNote } from "./path-rules.js";
import { commandFacts } from "./command-facts.js";
import { type Decision, type Effect, VERDICT_RANK } from "../types.js";
import {
  type Canonicalise,
  type EffectContext,
  type JudgedEffect,
  judgeEffectFromEachBase,
  strictest,
} from "./judge-effect.js";
import { judgeModels } from "./models.js";
import type { Planted } from "./planted.js";
import { sentSecretFiles } from "./judge-egress.js";
import { carriedItems } from "./carried-items.js";
import { requestEffects, type RequestEffects, subjectOf } from "./request-effects.js";

/** A decision with the per-effect verdicts behind it (what `effectgate check` prints). */
export interface Explanation {
  /** The tool, prompt name or URI the call is about, for messages. */
  subject: string;
  decision: Decision;
  items: JudgedEffect[];
  /** The state a persistent shell is left in if the call goes ahead (interact_with_process). */
  shell?: { id: string; state: ShellState };
  /**
   * The effects the call names, as extracted for this judgement (judged methods only). Kept so
   * that what the session learns from the answer does not extract them a second time.
   */
  found?: RequestEffects;
}

export interface DecideContext {
  policy: CompiledPolicy;
  /** Its resolver answers for this call only, when the session made it so (anchor-snapshot.ts). */
  env: JudgeEnvironment;
  tainted: boolean;
  canonicalise: Canonicalise;
  /** Paths written by calls this session let through (for the model of git's discovery). */
  planted?: Planted;
  /** Whether this session has already talked to a destination (egress.tainted_new_host). */
  seen?: (key: string) => boolean;
  /** Secret files this session has read (their fingerprints), for egress.secrets. */
  secretFiles?: SecretFiles;
  /** The bash grammar, the catalogue and what the session did so far (decision 0080). */
  commands?: CommandContextForCall;
}

/** What judging a command needs from the session: the grammar, and what it wrote and downloaded before. */
export interface CommandContextForCall {
  setup: CommandSetup;
  /** Canonical paths earlier calls of this session wrote. */
  written: ReadonlySet<string>;
  /** Canonical paths earlier calls wrote with what they fetched from the network. */
  downloaded: ReadonlySet<string>;
}

function unjudgeable(subject: string, why: string, tainted: boolean, effects: Effect[] = []): Explanation {
  return {
    subject,
    decision: {
      verdict: "deny",
      rule: "unjudgeable",
      reason: `the call cannot be judged: ${why}`,
      effects,
      tainted,
      unjudgeable: why,
    },
    items: [],
  };
}

/**
 * A folder that is placed or removed as a whole also touches every path below it: a pattern that
 * could match below it (CompiledPolicy.matchBelow; anchored patterns only for a removal) counts
 * as a match of its list for this effect, when that list is stricter than what the path earned.
 */
function judgeBelow(item: JudgedEffect, cx: DecideContext, tool: string, kind: ContainerKind): JudgedEffect {
  // An unjudgeable path has no canonical forms; it is already deny, which nothing below outranks.
  const { lexical, resolved } = item;
  if (lexical === undefined || resolved === undefined) return item;
  const reads = item.effect.operation === "read";
  // A removal reads nothing out; a folder read as a whole by a move or copy meets deny_read below it.
  if (reads && kind === "remove") return item;
  const state = { tainted: cx.tainted, renamed: item.renamed === true };
  const lists = pathRules(item.effect.operation, state);
  const forms = [...new Set([lexical, resolved])];
  for (const [list, verdict] of lists) {
    if (VERDICT_RANK[verdict] <= VERDICT_RANK[item.verdict]) break;
    for (const form of forms) {
      const pattern = cx.policy.matchBelow(list, form, cx.env.resolver, kind === "remove");
      if (pattern === undefined) continue;
      const via = form === lexical ? "" : ` (through a link: ${lexical})`;
      const note = ruleNote(list, state);
      return {
        ...item,
        effect: { ...item.effect, canonical: form },
        verdict,
        rule: `paths.${list} ${pattern}`,
        reason: `${item.effect.via === undefined ? `${tool} would ${reads ? "move or copy away" : kind === "remove" ? "remove" : "move, copy or unpack onto"}` : `${item.effect.via.command}: ${item.effect.via.does}`} ${form}${via} as a whole, a folder that holds paths matched by paths.${list} ${pattern}${note}`,
      };
    }
  }
  return item;
}

function effectsOf(items: readonly JudgedEffect[]): Effect[] {
  const out: Effect[] = [];
  for (const i of items) out.push(i.effect);
  return out;
}

/**
 * Judge one held request: tools/call by its arguments, prompts/get likewise (the prompt's name
 * standing in for the tool), resources/read by its uri. `problem` (set by the relay for frames it
 * could not read cleanly) makes the call unjudgeable before anything else is looked at.
 */
export function explainCall(
  cx: DecideContext,
  method: string,
  params: unknown,
  problem?: string,
): Explanation {
  const fallbackSubject = subjectOf(method, params);
  if (problem !== undefined) return unjudgeable(fallbackSubject, problem, cx.tainted);
  if (method !== "tools/call" && method !== "prompts/get" && method !== "resources/read") {
    return {
      subject: method,
      decision: { verdict: "allow", reason: `${method} is not judged`, effects: [], tainted: cx.tainted },
      items: [],
    };
  }
  const found = requestEffects(cx.policy, method, params, cx.commands?.setup);
  if ("error" in found) return { ...unjudgeable(found.subject, found.error, cx.tainted), found };
  const { subject, effects, execGlob, isContainer } = found;
  const ecx: EffectContext = {
    tool: subject,
    policy: cx.policy,
    env: cx.env,
    tainted: cx.tainted,
    canonicalise: canonicaliseOnce(cx.canonicalise),
    execGlob,
  };
  if (cx.seen !== undefined) ecx.seen = cx.seen;
  // Plain loops, not flatMap and map chains: this runs for every call (decision 0140).
  const judged: JudgedEffect[] = [];
  const kinds: Array<ContainerKind | undefined> = [];
  for (const e of effects) {
    const kind = isContainer(e);
    for (const item of judgeEffectFromEachBase(e, ecx)) {
      judged.push(kind === undefined ? item : judgeBelow(item, cx, subject, kind));
      kinds.push(kind);
    }
  }
  // Own files, git's discovery and PATH folders: models, not patterns (decisions 0067, 0068).
  const modelled = judgeModels(judged, kinds, {
    tool: subject,
    policy: cx.policy,
    env: cx.env,
    ...(cx.planted ? { planted: cx.planted } : {}),
  });
  // What commands amount to beyond their paths: destroying a protected root, running what this
  // session wrote or downloaded.
  const facts = modelled.some((i) => i.effect.via !== undefined) ? commandFacts(modelled, cx) : modelled;
  // A secret file a command sends out is told as the send it is, ahead of the read.
  const items: JudgedEffect[] = sentSecretFiles(facts, cx.policy);
  for (const item of facts) items.push(item);
  const carried = carriedItems(cx, found, method, effectsOf(items));
  for (const item of carried) items.push(item);
  const top = strictest(items);
  // An effect judged twice (a send, and the secret it carries) is listed once.
  const judgedEffects: Effect[] = [];
  const listed = new Set<Effect>();
  for (const { effect } of items)
    if (!listed.has(effect)) {
      listed.add(effect);
      judgedEffects.push(effect);
    }
  const shell = found.shell === undefined ? {} : { shell: found.shell };
  if (top === undefined || top.verdict === "allow") {
    const reason =
      items.length === 0
        ? `${subject} names no path, command or URL`
        : `no rule matches what ${subject} would do`;
    return {
      subject,
      decision: { verdict: "allow", reason, effects: judgedEffects, tainted: cx.tainted },
      items,
      ...shell,
      found,
    };
  }
  // The deciding effect comes first, so a log that keeps only the head of a long list keeps it.
  const ordered = [top.effect, ...judgedEffects.filter((e) => e !== top.effect)];
  // Every confirm or deny item names its rule (a path list, the exec class, or "unjudgeable").
  const decision: Decision = {
    verdict: top.verdict,
    rule: top.rule,
    reason: top.reason,
    effects: ordered,
    tainted: cx.tainted,
  };
  if (top.unjudgeable !== undefined) decision.unjudgeable = top.unjudgeable;
  return { subject, decision, items, ...shell, found };
}
