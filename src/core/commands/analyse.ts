import type { Statement } from "../shell/script-model.js";
import { Analyser } from "./analyser.js";
import type { Analysis, CommandContext, ShellState, Stdin } from "./api.js";
import { NONE, type VarValue } from "./flow.js";

// The entry points of a command's analysis: a command string, or an argv list. The walk itself
// is in analyser.ts (with compound-statement.ts, simple-command.ts and redirects.ts for the
// statements), program-run.ts (one program's words) and builtins.ts.

/**
 * The effects of one parsed command string. `cx.shell`, when given, is the state of a shell that
 * persists between calls; it is read and updated.
 */
function analyseScript(script: Statement, cx: CommandContext, stdin: Stdin = NONE): Analysis {
  const state: ShellState = cx.shell ?? { cwds: cx.cwds, vars: new Map(), defined: new Set() };
  const vars = new Map<string, VarValue>(state.vars);
  for (const p of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"])
    if (!vars.has(p)) vars.set(p, undefined);
  const an = new Analyser(cx, [...state.cwds], vars, new Set(state.defined), 0, cx.shell !== undefined);
  an.carried = new Map(state.carried);
  an.statement(script, stdin);
  if (cx.shell !== undefined) {
    cx.shell.cwds = an.cwds;
    cx.shell.vars = new Map(
      [...an.vars].filter((e): e is [string, string | undefined] => typeof e[1] !== "object"),
    );
    cx.shell.defined = an.defined;
    cx.shell.carried = an.carried;
  }
  const out: Analysis = { effects: an.effects, legacy: an.legacy };
  if (an.unjudgeable !== undefined) out.unjudgeable = an.unjudgeable;
  return out;
}

/** Parse and analyse `text`; an unreadable command is returned as such, for the caller to judge the old way. */
export function analyseCommand(text: string, cx: CommandContext, stdin: Stdin = NONE): Analysis {
  const parsed = cx.parse(text);
  if (!parsed.ok) return { effects: [], legacy: [text], unreadable: parsed.why };
  return analyseScript(parsed.script, cx, stdin);
}

/** A program and its words given apart (an argv list): no shell splits or expands them. */
export function analyseArgv(argv: readonly string[], cx: CommandContext, stdin: Stdin = NONE): Analysis {
  const words = argv.map((w) => ({ source: w, parts: [{ kind: "text" as const, text: w, quoted: true }] }));
  const command = {
    kind: "simple" as const,
    source: argv.join(" "),
    assigns: [],
    words,
    declares: [],
    redirects: [],
  };
  return analyseScript(command, cx, stdin);
}
