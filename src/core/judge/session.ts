import { canonicalise as realCanonicalise } from "../paths/canonical.js";
import type { CompiledPolicy, JudgeEnvironment } from "../policy/api.js";
import type { SessionJudgeApi, TaintEvent } from "../gate/session-judge.js";
import type { Decision } from "../types.js";
import type { ShellState } from "../commands/api.js";
import { catalogueFor, type CommandSetup, scriptReader } from "../commands/setup.js";
import { taintFromResponse } from "../taint/observe.js";
import { type CommandContextForCall, type Explanation, explainCall, requestEffects } from "./decide.js";
import type { Canonicalise } from "./judge-effect.js";
import { rememberWrites } from "./models.js";
import { Planted } from "./planted.js";

export interface SessionJudgeOptions {
  /** Start tainted (`effectgate check --tainted`, or taint shared from elsewhere). */
  tainted?: boolean;
  /** Replaces the path canonicaliser (tests only). */
  canonicalise?: Canonicalise;
}

export interface SessionJudge extends SessionJudgeApi {
  /** The decision with the per-effect verdicts behind it. */
  explain(method: string, params: unknown, problem?: string): Explanation;
  /** Mark the session tainted from outside (shared taint, tests). */
  taint(): void;
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
    };
  };
  const commands = (): CommandContextForCall | undefined => {
    const s = setup();
    return s === undefined ? undefined : { setup: s, written, downloaded };
  };
  const explain = (method: string, params: unknown, problem?: string): Explanation => {
    const cmd = commands();
    return explainCall(
      { policy, env, tainted, canonicalise, planted, ...(cmd === undefined ? {} : { commands: cmd }) },
      method,
      params,
      problem,
    );
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
      startedShell(request, response);
      const s = setup();
      const effectsOf = (method: string, params: unknown) => requestEffects(policy, method, params, s);
      const events = taintFromResponse(policy, env.server, request, response, scan, effectsOf);
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

/** Paths and shells remembered per session: enough for a day of work, bounded for a runaway one. */
const MAX_REMEMBERED = 20_000;
const MAX_SHELLS = 256;
/** A shell started to be typed into: `bash`, `/bin/zsh -i`, `sh --norc` (not `bash -c …`, not a script). */
const INTERACTIVE_SHELL = /^\s*(?:\S*\/)?(?:ba|z|da|k|mk|a)?sh(?:\s+(?:-[A-Za-bd-z]+|--[a-z-]+))*\s*$/;
