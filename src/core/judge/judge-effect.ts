import type { Canonical, PathResolver, PlatformProfile } from "../paths/api.js";
import { LITERAL } from "../paths/canonical.js";
import { otherReadings, type Reading, UNICODE_NOTE } from "../paths/readings.js";
import type { CompiledPolicy, JudgeEnvironment } from "../policy/api.js";
import { type Effect, type Verdict, VERDICT_RANK } from "../types.js";
import { withCanonical } from "../effects/with-canonical.js";
import { judgeDestination } from "./judge-egress.js";
import { pathRules, ruleNote, TAINT_NOTE } from "./path-rules.js";

/** `leaveOut`: interpreting steps to skip (STEP bits in src/core/paths/canonical.ts); 0 = all applied. */
export type Canonicalise = (
  input: string,
  profile: PlatformProfile,
  resolver: PathResolver,
  leaveOut?: number,
) => Canonical;

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
  /** The path is spelled so that Windows opens it under another name (Canonical.renamed). */
  renamed?: true;
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
  /** Whether this session has already talked to a destination (egress.tainted_new_host). */
  seen?: (key: string) => boolean;
}

const VERB: Record<Effect["operation"], string> = {
  read: "read",
  write: "write",
  exec: "run",
  send: "send to",
};

/** `write_file would write`, or for a program in a command, `chmod -R 0666 ~: changes the mode of`. */
export const doing = (effect: Effect, cx: { tool: string }): string =>
  effect.via === undefined
    ? `${cx.tool} would ${VERB[effect.operation]}`
    : `${effect.via.command}: ${effect.via.does}`;

/** One reading of a path string: the text canonicalised, the steps left out, and its note. */
interface PathReading {
  text: string;
  leaveOut: number;
  note: string;
}

const OWN_READING = (effect: Effect): PathReading => ({ text: effect.spelled, leaveOut: 0, note: "" });

/**
 * Judge one reading of a path effect. `equivalents`, when given, receives the canonical form's
 * other Unicode spellings (Canonical.equivalents), for the caller to judge as readings too.
 */
function judgePath(
  effect: Effect,
  cx: EffectContext,
  reading: PathReading = OWN_READING(effect),
  equivalents?: string[],
): JudgedEffect {
  const c =
    reading.leaveOut === 0
      ? cx.canonicalise(reading.text, cx.env.profile, cx.env.resolver)
      : cx.canonicalise(reading.text, cx.env.profile, cx.env.resolver, reading.leaveOut);
  if (!c.ok) {
    const why = `the path ${JSON.stringify(effect.spelled)} at ${effect.at}${reading.note} cannot be canonicalised: ${c.error}`;
    return { effect, verdict: "deny", rule: "unjudgeable", reason: why, unjudgeable: why };
  }
  if (equivalents !== undefined && c.equivalents !== undefined) equivalents.push(...c.equivalents);
  if (c.namesNoFile === true) {
    const why = `${cx.tool} would ${VERB[effect.operation]} a path of ${effect.spelled.length} characters at ${effect.at}: longer than any system accepts, it names no file`;
    return { effect, verdict: "allow", reason: why };
  }
  if (effect.operation === "write" && c.otherNames === true) {
    // Hard links: the write changes every name of the file, and no rule can see the others.
    const why = `the path ${JSON.stringify(effect.spelled)} at ${effect.at}${reading.note} names a file that has other names (hard links); effectgate cannot tell which paths this write changes`;
    return {
      effect: withCanonical(effect, c.resolved),
      verdict: "deny",
      rule: "unjudgeable",
      reason: why,
      unjudgeable: why,
      lexical: c.lexical,
      resolved: c.resolved,
    };
  }
  // `physical` is where the kernel lands when a `..` follows a link (decision 0010).
  const forms = formsOf(c.lexical, c.resolved, c.physical);
  // Both spellings are judged; the first (strictest) list that matches either one decides.
  const state = { tainted: cx.tainted, renamed: c.renamed === true };
  for (const [list, verdict] of pathRules(effect.operation, state)) {
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
            : ` (where \`..\` after a link in ${JSON.stringify(reading.text)} leads)`;
      const note = ruleNote(list, state);
      const reason = `${doing(effect, cx)} ${form}${via}${reading.note}, which matches paths.${list} ${pattern}${note}`;
      return pathItem(effect, form, verdict, reason, c, `paths.${list} ${pattern}`);
    }
  }
  return pathItem(
    effect,
    c.resolved,
    "allow",
    `${doing(effect, cx)} ${c.resolved}${reading.note}, which no rule names`,
    c,
  );
}

/** The canonical forms to match, each once: lexical, resolved, physical (when there is one). */
function formsOf(lexical: string, resolved: string, physical: string | undefined): string[] {
  const forms = [lexical];
  if (resolved !== lexical) forms.push(resolved);
  if (physical !== undefined && physical !== lexical && physical !== resolved) forms.push(physical);
  return forms;
}

/**
 * A judged path, built property by property rather than by spreads (V8 copies a spread with
 * extra properties generically, and slowly). Every judged path has the same property order,
 * which keeps V8's access to them monomorphic (a measured 20% of decision time); `rule` comes
 * last, where the spread that this replaces put it.
 */
function pathItem(
  effect: Effect,
  canonical: string,
  verdict: Verdict,
  reason: string,
  c: { lexical: string; resolved: string; physical?: string; renamed?: boolean },
  rule?: string,
): JudgedEffect {
  const item: JudgedEffect = {
    effect: withCanonical(effect, canonical),
    verdict,
    reason,
    lexical: c.lexical,
    resolved: c.resolved,
  };
  if (c.physical !== undefined) item.physical = c.physical;
  if (c.renamed === true) item.renamed = true;
  if (rule !== undefined) item.rule = rule;
  return item;
}

function judgeCommand(effect: Effect, cx: EffectContext): JudgedEffect {
  const { action, actionIfTainted } = cx.policy.exec;
  const execVerdict = cx.tainted ? actionIfTainted : action;
  const key = cx.tainted ? "exec.action_if_tainted" : "exec.action";
  // The rule names the exec class; the taint part is in the reason and Decision.tainted.
  const rule =
    cx.execGlob !== undefined ? `exec ${cx.execGlob}` : `exec ${cx.tool} (built-in: runs commands or code)`;
  const via = effect.via;
  if (via?.class !== undefined) return judgeClass(effect, via, cx, { verdict: execVerdict, key, rule });
  const shown = effect.spelled.length > 200 ? `${effect.spelled.slice(0, 197)}...` : effect.spelled;
  return {
    effect,
    verdict: execVerdict,
    rule,
    reason: `${cx.tool} runs commands (${JSON.stringify(shown)}); ${key} is ${execVerdict}${cx.tainted ? TAINT_NOTE : ""}`,
  };
}

/**
 * What running one program amounts to, as the policy's `commands:` section rates it. Unknown
 * programs and programs that send data out take the exec class action (egress judges where the
 * data goes); the rest have their own keys. Paths are judged on their own effects.
 */
function judgeClass(
  effect: Effect,
  via: NonNullable<Effect["via"]>,
  cx: EffectContext,
  exec: { verdict: Verdict; key: string; rule: string },
): JudgedEffect {
  const c = cx.policy.commands;
  const said = `${via.command}: ${via.does}`;
  const taint = cx.tainted ? TAINT_NOTE : "";
  const rated = (verdict: Verdict, key: string): JudgedEffect => ({
    effect,
    verdict,
    rule: `commands.${key}`,
    reason: `${said} (commands.${key} is ${verdict}${taint})`,
  });
  switch (via.class) {
    case "none":
    case "reads":
    case "fetch":
      return cx.tainted ? rated(c.knownIfTainted, "known_if_tainted") : rated(c.known, "known");
    case "project":
      return cx.tainted ? rated(c.projectIfTainted, "project_if_tainted") : rated(c.project, "project");
    case "network-code":
      return rated(c.networkCode, "network_code");
    case "code-settings":
      return rated(c.codeSettings, "code_settings");
    case "persistence":
      return rated(c.persistence, "persistence");
    case "sends":
      return cx.tainted ? rated(c.sendsIfTainted, "sends_if_tainted") : rated(c.sends, "sends");
    default:
      // unknown
      return {
        effect,
        verdict: exec.verdict,
        rule: exec.rule,
        reason: `${said}; ${exec.key} is ${exec.verdict}${taint}`,
      };
  }
}

/**
 * `judgeEffect`, and for a path the same effect under every other reading a server may take,
 * one item per place it can name (deduplicated by lexical form, the stricter kept), the strictest deciding:
 * - a relative path read from each of `env.bases` too (decision 0060);
 * - the string with effectgate's trimming, `file:` decoding, `~` or variable expansion left out,
 *   placed under the cwd and every base likewise (decision 0061);
 * - each of those with a name outside ASCII, also as its NFC form and through existing names
 *   with the same NFC form (Canonical.equivalents), taken literally.
 * A path none of this applies to is canonicalised once, or once per base.
 */
export function judgeEffectFromEachBase(effect: Effect, cx: EffectContext): JudgedEffect[] {
  if (effect.kind !== "path") return [judgeEffect(effect, cx)];
  const equivalents: string[] = [];
  const first = judgePath(effect, cx, OWN_READING(effect), equivalents);
  if (first.lexical === undefined) return [first]; // unjudgeable (deny), or names no file
  const bases = cx.env.bases ?? [];
  const others = otherReadings(effect.spelled, cx.env.profile);
  if (bases.length === 0 && others.length === 0 && equivalents.length === 0) return [first];
  const items = [first];
  // Lexical form → its item's index. Readings that name one place may still differ in verdict:
  // an untrimmed `.env.local ` is spelled so Windows opens it under another name (path-rules.ts).
  const seen = new Map([[first.lexical, 0]]);
  const add = (item: JudgedEffect): void => {
    const at = item.lexical === undefined ? undefined : seen.get(item.lexical);
    if (at !== undefined) {
      if (VERDICT_RANK[item.verdict] > VERDICT_RANK[(items[at] as JudgedEffect).verdict]) items[at] = item;
      return;
    }
    if (item.lexical !== undefined) seen.set(item.lexical, items.length);
    items.push(item);
  };
  const fromCwd = (cwd: string, reading: PathReading): JudgedEffect =>
    judgePath(
      effect,
      { ...cx, env: { ...cx.env, profile: { ...cx.env.profile, cwd } } },
      reading,
      equivalents,
    );
  for (const cwd of bases) add(fromCwd(cwd, OWN_READING(effect)));
  for (const other of others) {
    const reading = readingOf(effect.spelled, other);
    add(judgePath(effect, cx, reading, equivalents));
    for (const cwd of bases) add(fromCwd(cwd, reading));
  }
  // Equivalents are absolute: one reading each, with nothing more read into them.
  for (const text of new Set(equivalents)) {
    if (seen.has(text)) continue;
    add(judgePath(effect, cx, { text, leaveOut: LITERAL, note: UNICODE_NOTE }));
  }
  return items;
}

function readingOf(text: string, r: Reading): PathReading {
  return { text, leaveOut: r.leaveOut, note: r.note };
}

function judgeEffect(effect: Effect, cx: EffectContext): JudgedEffect {
  if (effect.kind === "command") return judgeCommand(effect, cx);
  // A fetch sends its request (and its URL) to the host: judged as where the call sends.
  if (effect.kind === "url" || effect.kind === "egress") return judgeDestination(effect, cx);
  return judgePath(effect, cx);
}

/**
 * The item that decides the call: deny > confirm > allow; a real deny is preferred over an
 * unjudgeable one (it says more), and the first item of the winning severity keeps the attribution.
 */
export function strictest(items: readonly JudgedEffect[]): JudgedEffect | undefined {
  let best: JudgedEffect | undefined;
  for (const item of items) {
    if (best === undefined || VERDICT_RANK[item.verdict] > VERDICT_RANK[best.verdict]) best = item;
    else if (
      VERDICT_RANK[item.verdict] === VERDICT_RANK[best.verdict] &&
      best.unjudgeable !== undefined &&
      item.unjudgeable === undefined
    )
      best = item;
  }
  return best;
}
