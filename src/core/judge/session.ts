import { canonicalise as realCanonicalise } from "../paths/canonical.js";
import { anchorSnapshots } from "../paths/anchor-snapshot.js";
import type { CompiledPolicy, JudgeEnvironment } from "../policy/api.js";
import type { SessionJudgeApi, TaintEvent } from "../gate/session-judge.js";
import type { Decision } from "../types.js";
import type { ShellState } from "../commands/api.js";
import { catalogueFor, type CommandSetup, scriptReader } from "../commands/setup.js";
import { taintFromResponse } from "../taint/observe.js";
import { createSecretFiles, isEnvFile } from "../secrets/fingerprints.js";
import { destinationKey, destinationsOf } from "../effects/egress.js";
import { type CommandContextForCall, type Explanation, explainCall } from "./decide.js";
import { requestEffects, type RequestEffects } from "./request-effects.js";
import type { Canonicalise } from "./judge-effect.js";
import { rememberWrites } from "./models.js";
import { Planted } from "./planted.js";
import { destinationsReached, sendsTo } from "./judge-egress.js";

export interface SessionJudgeOptions {
  /** Start tainted (`effectgate check --tainted`, or taint shared from elsewhere). */
  tainted?: boolean;
  /** Replaces the path canonicaliser (tests only). */
  canonicalise?: Canonicalise;
}

export interface SessionJudge extends SessionJudgeApi {
  /** The decision with the per-effect verdicts behind it. */
  explain(method: string, params: unknown, problem?: string): Explanation;
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
  // What the session did that later commands are judged by (decision 0080).
  const written = new Set<string>();
  const downloaded = new Set<string>();
  const shells = new Map<string, ShellState>();
  const setup = (): CommandSetup | undefined => {
    const kit = env.shell?.();
    if (kit === undefined) return undefined;
    return {
      parse: scriptReader(kit.parser),
      catalogue: catalogueFor(kit, policy.commands.programs),
      variables: kit.variables,
      platform: env.profile.platform,
      shells,
      ...(env.remotes === undefined ? {} : { remotes: env.remotes }),
    };
  };
  const commands = (): CommandContextForCall | undefined => {
    const s = setup();
    return s === undefined ? undefined : { setup: s, written, downloaded };
  };
  // Where this session has sent (answered calls only), and the secret files it has read. Both
  // live in memory only: the fingerprints are hashes, never written anywhere (decision 0091).
  const seen = new Set<string>();
  const secretFiles = createSecretFiles();
  // The resolver each call is judged through: which anchors moved is worked out once a call.
  const snapshots = anchorSnapshots(env.resolver);
  const callEnv: JudgeEnvironment = { ...env, resolver: snapshots.resolver };
  const cx = () => {
    snapshots.nextCall();
    const cmd = commands();
    return {
      policy,
      env: callEnv,
      tainted,
      canonicalise,
      planted,
      seen: (k: string) => seen.has(k),
      secretFiles,
      ...(cmd === undefined ? {} : { commands: cmd }),
    };
  };
  // The explanation of a judged request, for its answer: the relay shows the same params object.
  const explained = new WeakMap<object, Explanation>();
  const explain = (method: string, params: unknown, problem?: string): Explanation => {
    const e = explainCall(cx(), method, params, problem);
    if (params !== null && typeof params === "object" && problem === undefined) explained.set(params, e);
    return e;
  };
  /** The judgement of a request this session explained, if it did (the same params object). */
  const judgementOf = (params: unknown): Explanation | undefined =>
    params !== null && typeof params === "object" ? explained.get(params) : undefined;
  /**
   * A request's effects after its answer: those its judgement extracted, so that each call is
   * extracted once. A request this session did not judge (a replayed log) is extracted here.
   */
  const effectsOf = (method: string, params: unknown): RequestEffects =>
    judgementOf(params)?.found ?? requestEffects(policy, method, params, setup());
  /** After an answer: remember where the call went, and what secret file it read. */
  const rememberAnswer = (
    request: { method: string; params: unknown },
    response: Record<string, unknown>,
    effectsOf: (method: string, params: unknown) => RequestEffects,
  ) => {
    if (!["tools/call", "resources/read", "prompts/get"].includes(request.method)) return;
    const found = effectsOf(request.method, request.params);
    if ("error" in found) return;
    for (const e of found.effects)
      if (e.kind === "url" || e.kind === "egress")
        for (const d of destinationsReached(e)) if (sendsTo(e, d)) seen.add(destinationKey(d));
    const sent = found.effects.filter((e) => e.destination === undefined || sendsTo(e, e.destination));
    for (const d of destinationsOf(found.subject, found.args ?? {}, sent)) seen.add(destinationKey(d));
    if (
      response["result"] === undefined ||
      !found.effects.some((e) => e.kind === "path" && e.operation === "read")
    )
      return;
    const judged = judgementOf(request.params) ?? explainCall(cx(), request.method, request.params);
    const secret = judged.items.find(
      (i) =>
        i.effect.kind === "path" &&
        i.effect.operation === "read" &&
        (i.rule?.startsWith("paths.deny_read ") === true ||
          [i.lexical, i.resolved].some((f) => f !== undefined && isEnvFile(f))),
    );
    if (secret === undefined) return;
    const texts: string[] = [];
    collectStrings(response["result"], texts, 0);
    secretFiles.remember(secret.resolved ?? secret.effect.spelled, texts.join("\n"));
  };
  return {
    get tainted() {
      return tainted;
    },
    explain,
    judge(method: string, params: unknown, problem?: string): Decision {
      const x = explain(method, params, problem);
      if (x.decision.verdict !== "deny" && policy.runsLater.gitDirs !== "allow")
        rememberWrites(x.items, planted);
      // A call that goes ahead (it is not denied) is taken to have done what it says: later
      // commands are judged knowing what it wrote, downloaded, and left its shell in.
      if (x.decision.verdict !== "deny") remember(x);
      return x.decision;
    },
    observe(request, response, scan): TaintEvent[] {
      // Extracted at most once for this answer, even for a request this session did not judge.
      let found: RequestEffects | undefined;
      const effectsOnce = (method: string, params: unknown) => (found ??= effectsOf(method, params));
      rememberAnswer(request, response, effectsOnce);
      startedShell(request, response);
      const events = taintFromResponse(policy, env.server, request, response, scan, effectsOnce);
      if (events.length > 0) tainted = true;
      return events;
    },
    taint() {
      tainted = true;
    },
  };

  function remember(x: Explanation): void {
    for (const item of x.items) {
      const e = item.effect;
      if (e.kind !== "path" || e.operation !== "write" || item.resolved === undefined || e.via?.weak === true)
        continue;
      if (written.size < MAX_REMEMBERED) written.add(item.resolved);
      if (e.via?.downloaded === true && downloaded.size < MAX_REMEMBERED) downloaded.add(item.resolved);
    }
    if (x.shell !== undefined && shells.size < MAX_SHELLS) shells.set(x.shell.id, x.shell.state);
  }

  /** Desktop Commander's start_process answers with the process id of what it started. */
  function startedShell(
    request: { method: string; params: unknown },
    response: Record<string, unknown>,
  ): void {
    if (request.method !== "tools/call") return;
    const p = request.params as { name?: unknown; arguments?: { command?: unknown } } | undefined;
    if (typeof p?.name !== "string" || p.name.toLowerCase() !== "start_process") return;
    const command = p.arguments?.command;
    if (typeof command !== "string" || !INTERACTIVE_SHELL.test(command)) return;
    const text = JSON.stringify(response["result"] ?? "");
    const pid = /\bPID[:\s]+(\d+)/i.exec(text)?.[1];
    if (pid !== undefined && shells.size < MAX_SHELLS)
      shells.set(`pid:${pid}`, { cwds: [undefined], vars: new Map(), defined: new Set() });
  }
}

/** Every string of an answer's result (a resource's base64 blob decoded), for fingerprints. */
function collectStrings(v: unknown, out: string[], depth: number): void {
  if (depth > 16) return;
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) collectStrings(x, out, depth + 1);
  else if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (typeof o["blob"] === "string") out.push(Buffer.from(o["blob"], "base64").toString("utf8"));
    for (const x of Object.values(o)) collectStrings(x, out, depth + 1);
  }
}

/** Paths and shells remembered per session: enough for a day of work, bounded for a runaway one. */
const MAX_REMEMBERED = 20_000;
const MAX_SHELLS = 256;
/** A shell started to be typed into: `bash`, `/bin/zsh -i`, `sh --norc` (not `bash -c …`, not a script). */
const INTERACTIVE_SHELL = /^\s*(?:\S*\/)?(?:ba|z|da|k|mk|a)?sh(?:\s+(?:-[A-Za-bd-z]+|--[a-z-]+))*\s*$/;
