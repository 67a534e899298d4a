import type { Canonical, PathResolver, PlatformProfile } from "../paths/api.js";
import type { CompiledPolicy, JudgeEnvironment, PathList } from "../policy/api.js";
import type { Effect, Verdict } from "../types.js";

export type Canonicalise = (input: string, profile: PlatformProfile, resolver: PathResolver) => Canonical;

/** One effect with the verdict it earned on its own. */
export interface JudgedEffect {
  effect: Effect;
  verdict: Verdict;
  rule?: string;
  reason: string;
  /** The lexical and resolved canonical forms, for explanations (paths only). */
  lexical?: string;
  resolved?: string;
  /** Where the kernel lands when a `..` follows a link, when that differs from `resolved`. */
  physical?: string;
  /** Why the effect could not be judged (then verdict is deny). */
  unjudgeable?: string;
}

export interface EffectContext {
  tool: string;
  policy: CompiledPolicy;
  env: JudgeEnvironment;
  tainted: boolean;
  canonicalise: Canonicalise;
  /** The exec glob that made this tool exec-class, or undefined for table-declared exec tools. */
  execGlob: string | undefined;
}

const VERB: Record<Effect["operation"], string> = { read: "read", write: "write", exec: "run" };
const TAINT_NOTE = ", and this session has taken in untrusted content";

/** Rules a path meets, strictest first. Reads only meet `deny_read`: reading package.json is fine. */
function pathRules(op: Effect["operation"], tainted: boolean): Array<[PathList, Verdict]> {
  if (op === "read") return [["deny_read", "deny"]];
  const lists: Array<[PathList, Verdict]> = [
    ["deny", "deny"],
    ["confirm", "confirm"],
  ];
  if (tainted) lists.push(["confirm_if_tainted", "confirm"]);
  return lists;
}

function judgePath(effect: Effect, cx: EffectContext): JudgedEffect {
  const c = cx.canonicalise(effect.spelled, cx.env.profile, cx.env.resolver);
  if (!c.ok) {
    const why = `the path ${JSON.stringify(effect.spelled)} at ${effect.at} cannot be canonicalised: ${c.error}`;
    return { effect, verdict: "deny", rule: "unjudgeable", reason: why, unjudgeable: why };
  }
  if (c.namesNoFile === true) {
    const why = `${cx.tool} would ${VERB[effect.operation]} a path of ${effect.spelled.length} characters at ${effect.at}: longer than any system accepts, it names no file`;
    return { effect, verdict: "allow", reason: why };
  }
  if (effect.operation === "write" && c.otherNames === true) {
    // Hard links: the write changes every name of the file, and no rule can see the others.
    const why = `the path ${JSON.stringify(effect.spelled)} at ${effect.at} names a file that has other names (hard links); effectgate cannot tell which paths this write changes`;
    return {
      effect: { ...effect, canonical: c.resolved },
      verdict: "deny",
      rule: "unjudgeable",
      reason: why,
      unjudgeable: why,
      lexical: c.lexical,
      resolved: c.resolved,
    };
  }
  // `physical` is where the kernel lands when a `..` follows a link (decision 0010).
  const forms = [...new Set([c.lexical, c.resolved, ...(c.physical === undefined ? [] : [c.physical])])];
  const judged = {
    effect: { ...effect, canonical: c.resolved },
    verdict: "allow" as const,
    // Overwritten below; declared here so every judged effect has the same property order,
    // which keeps V8's property access on them monomorphic (a measured 20% of decision time).
    reason: "",
    lexical: c.lexical,
    resolved: c.resolved,
    ...(c.physical === undefined ? {} : { physical: c.physical }),
  };
  // Both spellings are judged; the first (strictest) list that matches either one decides.
  for (const [list, verdict] of pathRules(effect.operation, cx.tainted)) {
    for (const form of forms) {
      const pattern = cx.policy.matchPath(list, form, cx.env.resolver);
      if (pattern === undefined) continue;
      // The resolved form is reached through a link from the lexical one; the physical form is
      // where the kernel's walk goes when a `..` follows a link (the lexical form has no `..` left).
      const via =
        form === c.lexical
          ? ""
          : form === c.resolved
            ? ` (through a link: ${c.lexical})`
            : ` (where \`..\` after a link in ${JSON.stringify(effect.spelled)} leads)`;
      const note = list === "confirm_if_tainted" ? TAINT_NOTE : "";
      return {
        ...judged,
        effect: { ...effect, canonical: form },
        verdict,
        rule: `paths.${list} ${pattern}`,
        reason: `${cx.tool} would ${VERB[effect.operation]} ${form}${via}, which matches paths.${list} ${pattern}${note}`,
      };
    }
  }
  return {
    ...judged,
    reason: `${cx.tool} would ${VERB[effect.operation]} ${c.resolved}, which no rule names`,
  };
}

function judgeCommand(effect: Effect, cx: EffectContext): JudgedEffect {
  const { action, actionIfTainted } = cx.policy.exec;
  const verdict = cx.tainted ? actionIfTainted : action;
  const key = cx.tainted ? "exec.action_if_tainted" : "exec.action";
  // The rule names the exec class; the taint part is in the reason and Decision.tainted.
  const rule =
    cx.execGlob !== undefined ? `exec ${cx.execGlob}` : `exec ${cx.tool} (built-in: runs commands or code)`;
  const shown = effect.spelled.length > 200 ? `${effect.spelled.slice(0, 197)}...` : effect.spelled;
  return {
    effect,
    verdict,
    rule,
    reason: `${cx.tool} runs commands (${JSON.stringify(shown)}); ${key} is ${verdict}${cx.tainted ? TAINT_NOTE : ""}`,
  };
}

/**
 * `judgeEffect`, and for a path that lands elsewhere when read from one of `env.bases` (a
 * relative path), the same path judged from there too: one item per place it can name.
 */
export function judgeEffectFromEachBase(effect: Effect, cx: EffectContext): JudgedEffect[] {
  const first = judgeEffect(effect, cx);
  const bases = cx.env.bases;
  if (effect.kind !== "path" || bases === undefined || first.lexical === undefined) return [first];
  const items = [first];
  const seen = new Set([first.lexical]);
  for (const cwd of bases) {
    const item = judgePath(effect, { ...cx, env: { ...cx.env, profile: { ...cx.env.profile, cwd } } });
    if (item.lexical !== undefined && seen.has(item.lexical)) continue;
    if (item.lexical !== undefined) seen.add(item.lexical);
    items.push(item);
  }
  return items;
}

export function judgeEffect(effect: Effect, cx: EffectContext): JudgedEffect {
  if (effect.kind === "command") return judgeCommand(effect, cx);
  if (effect.kind === "url") {
    return {
      effect,
      verdict: "allow",
      reason: `${cx.tool} would fetch ${effect.spelled}; its response will mark the session as tainted`,
    };
  }
  return judgePath(effect, cx);
}

const RANK: Record<Verdict, number> = { allow: 0, confirm: 1, deny: 2 };

/**
 * The item that decides the call: deny > confirm > allow; a real deny is preferred over an
 * unjudgeable one (it says more), and the first item of the winning severity keeps the attribution.
 */
export function strictest(items: readonly JudgedEffect[]): JudgedEffect | undefined {
  let best: JudgedEffect | undefined;
  for (const item of items) {
    if (best === undefined || RANK[item.verdict] > RANK[best.verdict]) best = item;
    else if (
      RANK[item.verdict] === RANK[best.verdict] &&
      best.unjudgeable !== undefined &&
      item.unjudgeable === undefined
    )
      best = item;
  }
  return best;
}
