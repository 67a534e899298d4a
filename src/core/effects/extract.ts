import { analyseArgv, analyseCommand } from "../commands/analyse.js";
import type { Analysis, CommandContext, ShellState, Stdin } from "../commands/api.js";
import type { CommandSetup } from "../commands/setup.js";
import type { Effect } from "../types.js";
import { OverBudget } from "./budget.js";
import { commandOf, workdirsOf } from "./exec-arguments.js";
import { copyState, shellCommand } from "./shell-command.js";
import { declaredRole, knownTool, verbOperations } from "./tool-table.js";
import { Unjudgeable, Walker } from "./walker.js";

/**
 * Effects of one call, before canonicalisation. See docs/decisions/0021-path-positions.md for
 * what counts as a path position. Every string is visited (values and object keys, at any depth,
 * inside JSON embedded in strings too); a call beyond the budget (budget.ts) is not judged
 * partially: the whole extraction fails, and the decision is "too large to judge".
 */
export type Extraction =
  | {
      ok: true;
      effects: Effect[];
      /** The state a persistent shell is left in, for the session to keep if the call goes ahead. */
      shell?: { id: string; state: ShellState };
    }
  | { ok: false; error: string };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Effects of calling `tool` with `args`. `execClass` is true when the policy's exec globs name
 * the tool; the built-in table can also mark a tool as running code (start_process, …). With
 * `setup` (the bash grammar and the catalogue), a shell command is judged by what its programs
 * do (docs/decisions/0079-program-catalogue.md); without it, every word of it is a path.
 */
export function extractEffects(
  tool: string,
  args: Record<string, unknown>,
  execClass: boolean,
  setup?: CommandSetup,
): Extraction {
  const known = knownTool(tool, args);
  const isExec = execClass || known?.exec === true;
  const workdirs = isExec ? workdirsOf(args) : [];
  const walker = new Walker(known ? [known.fallback] : verbOperations(tool), isExec, workdirs);
  let shell: { id: string; state: ShellState } | undefined;
  try {
    const command = isExec && setup !== undefined ? shellCommand(tool, args, known, setup) : undefined;
    let readOldWay = command === undefined;
    if (command !== undefined && setup !== undefined) {
      const state = command.persistent === undefined ? undefined : copyState(command.persistent.state);
      const cx: CommandContext = {
        catalogue: setup.catalogue,
        codeVariables: setup.variables,
        parse: setup.parse,
        cwds: [undefined, ...workdirs.map((w) => w.dir)],
        ...(state === undefined ? {} : { shell: state }),
        ...(tool.toLowerCase() === "start_process" ? { interactive: true } : {}),
        ...(setup.remotes === undefined ? {} : { remotes: setup.remotes }),
      };
      const stdin: Stdin =
        command.stdin === undefined
          ? { kind: "none" }
          : { kind: "heredoc", text: command.stdin, expands: false };
      const analyses: Analysis[] = [];
      if (command.text !== undefined) {
        walker.count(command.text);
        analyses.push(analyseCommand(command.text, cx, stdin));
      }
      if (command.argv !== undefined) {
        for (const w of command.argv) walker.count(w);
        analyses.push(analyseArgv(command.argv, cx, stdin));
      }
      for (const a of analyses) {
        if (a.unreadable !== undefined) {
          // Not bash the grammar can read: the old reading, and the exec class action, as before.
          readOldWay = true;
          for (const text of a.legacy) walker.legacyWords(text, command.at, 1);
        } else walker.analysed(a, command.at, 1);
      }
      if (command.persistent !== undefined && state !== undefined)
        shell = { id: command.persistent.id, state };
      if (readOldWay) for (const n of command.names) walker.visit(args[n], `arguments.${n}`, "command", 1, n);
    }
    if (isExec && readOldWay)
      walker.add("exec", "command", "arguments", commandOf(tool, args, known?.args ?? {}));
    for (const [name, value] of Object.entries(args)) {
      if (command !== undefined && command.names.includes(name)) continue;
      const declared = declaredRole(known, name);
      // Argument names are the tool schema's vocabulary (`path`, `content`), not values: an
      // identifier-shaped top-level name is not a candidate. Any other name is (`~/.bashrc`), and
      // keys deeper down always are. (Every name the table declares is identifier-shaped.)
      if (!IDENTIFIER.test(name)) walker.string(name, `arguments{key ${JSON.stringify(name)}}`, "generic", 1);
      walker.visit(value, `arguments.${name}`, declared ?? "generic", 1, name);
    }
  } catch (err) {
    if (err instanceof OverBudget) return { ok: false, error: `too large to judge: ${err.message}` };
    if (err instanceof Unjudgeable) return { ok: false, error: err.message };
    throw err;
  }
  return shell === undefined
    ? { ok: true, effects: walker.effects }
    : { ok: true, effects: walker.effects, shell };
}
