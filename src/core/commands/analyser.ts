import { programName } from "../shell/program-name.js";
import type { ConfiguredRemotes } from "../types.js";
import type { ShellWord, Statement } from "../shell/script-model.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";
import type { Arg, Below, CommandContext, Cwd, Run, Stdin } from "./api.js";
import { applyEntry } from "./apply.js";
import { runBuiltin } from "./builtins.js";
import { Collector } from "./collector.js";
import { compoundStatement } from "./compound-statement.js";
import { cut, type Flow, NONE, secretName, type VarValue } from "./flow.js";
import { ProgramRun } from "./program-run.js";
import { simpleCommand } from "./simple-command.js";
import { codeVariableProblem } from "./variables.js";
import { wordValue } from "./words.js";

/**
 * A parsed command judged by what its programs do (docs/decisions/0079-program-catalogue.md):
 * each simple command is resolved through wrappers and builtins to a program of the catalogue,
 * whose options and operands say which paths it reads, writes, removes or runs, which URLs it
 * fetches, and what running it amounts to. Working folders follow `cd` (every folder a `cd` may
 * leave the shell in, since a `cd` can fail); variables the command sets are followed too.
 * What cannot be placed is unknown: the exec class action, and the old reading of its words.
 */

// The Analyser holds the shell's state (folders, variables, functions) and runs programs. It
// walks statements of statements in compound-statement.ts, simple commands in simple-command.ts
// and their redirections in redirects.ts; what the walk collects is kept by collector.ts.

/** How deep code inside code is followed (`sh -c "bash -c '…'"`). */
const MAX_DEPTH = 4;
/** Working folders followed at once; past this the folder is known only at run time. */
const MAX_CWDS = 8;

export class Analyser extends Collector {
  get remotes(): ConfiguredRemotes | undefined {
    return this.cx.remotes;
  }

  get interactive(): boolean {
    return this.cx.interactive === true && this.depth === 0;
  }

  constructor(
    private readonly cx: CommandContext,
    public cwds: Cwd[],
    public vars: Map<string, VarValue>,
    public defined: Set<string>,
    private readonly depth: number,
    private readonly persistent: boolean,
  ) {
    super();
  }

  /**
   * A word as an argument: its value, and what it stands for when a variable holds found files.
   * A variable in it that holds secret data, or a server's variable named like a credential,
   * is brought into the open taps: the word carries it wherever the program sends its words.
   */
  arg(word: ShellWord): Arg {
    for (const p of word.parts) {
      if (p.kind !== "var") continue;
      const held = this.carried.get(p.name);
      if (held !== undefined) this.bring(held);
      else if (!this.vars.has(p.name) && secretName(p.name)) this.bring({ reads: [], variables: [p.name] });
    }
    const plain = new Map<string, string | undefined>();
    let below: Below | undefined;
    for (const [k, v] of this.vars) {
      if (typeof v === "object") {
        if (word.parts.some((p) => p.kind === "var" && p.name === k)) below = v;
        plain.set(k, undefined);
      } else plain.set(k, v);
    }
    const value = wordValue(word, plain);
    if (below === undefined) return { value };
    const { text, substitutions } = value;
    return { value: { text, substitutions }, below };
  }

  /** Runs the substitutions inside an argument (they run before the program); whether one fetched. */
  substitutions(a: Arg): boolean {
    let fetched = false;
    for (const s of a.value.substitutions) if (this.statement(s, NONE).fetched) fetched = true;
    return fetched;
  }

  /** A statement's effects; what it fetched, lists and prints, for the statement it is part of. */
  statement(s: Statement, stdin: Stdin): Flow {
    return s.kind === "simple" ? simpleCommand(this, s, stdin) : compoundStatement(this, s, stdin);
  }

  /** A code-running variable set for a program or for the rest of the shell. */
  variable(run: Run, name: string, value: Arg): void {
    const problem = codeVariableProblem(this.cx.codeVariables, name, value.value.exact, value.value.text);
    if (problem !== undefined) run.cls("code-settings", problem);
  }

  runFor(program: string, command: string, stdin: Stdin, cwds: Cwd[] = this.cwds): ProgramRun {
    return new ProgramRun(this, program, command, stdin, [...cwds]);
  }

  invoke(
    program: Arg,
    rest: Arg[],
    stdin: Stdin,
    command: string,
    fetchedArgs: ReadonlySet<Arg> = new Set(),
  ): Flow {
    const run = this.runFor(program.value.exact ?? "(command)", command, stdin);
    const name = program.value.exact;
    if (name === undefined) {
      if (fetchedArgs.has(program))
        run.cls("network-code", "runs a program named by what was fetched from the network");
      else run.unknown(`the program is chosen at run time (${cut(program.value.text)})`);
      return run.flow;
    }
    if (this.defined.has(name)) {
      // A function defined in this command (its body was judged where it was defined), or an
      // alias or function of a shell that persists.
      if (this.persistent) run.unknown(`${name} is an alias or function defined earlier in this shell`);
      else for (const a of rest) run.role("candidate", a);
      return run.flow;
    }
    if (runBuiltin(this, run, name, rest, fetchedArgs)) return run.flow;
    let entryName = programName(name);
    if (
      /[\\/]/.test(name) &&
      !/^(?:\/usr)?(?:\/local)?\/s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$/.test(name)
    ) {
      // A program named by its path outside the system's folders: the project's own script.
      run.role("exec", program);
      for (const a of rest) run.role("candidate", a);
      return run.flow;
    }
    if (entryName.endsWith(".exe")) entryName = entryName.slice(0, -4);
    const entry = this.cx.catalogue.get(entryName);
    if (entry === undefined) {
      // Every reason shows the command first (`frobnicate x: …`): the program is named again only
      // when another runs it (`sudo frobnicate`, `env A=1 frobnicate`), to say which one is unknown.
      const own = command === name || command.startsWith(`${name} `);
      run.unknown(`${own ? "" : `${entryName}: `}a program the catalogue does not know`);
      return run.flow;
    }
    applyEntry(run, entry, rest, entryName);
    if (entryName === "printenv") printenvPrints(run, rest);
    return run.flow;
  }

  /** `cd DIR`: the shell is in DIR afterwards, or where it was if the cd failed. */
  changeDir(dir: Arg): void {
    // A variable the command does not set is the server's (`cd "$HOME"`): kept for the canonicaliser.
    const target = dir.value.exact ?? (dir.value.dynamic === undefined ? dir.value.text : undefined);
    const next: Cwd[] = [...this.cwds];
    for (const c of this.cwds) {
      if (target === undefined || c === null) next.push(null);
      else if (target === "-") continue;
      else if (!isRelativeWord(target) || c === undefined) next.push(target);
      else next.push(inWorkdir(c, target));
    }
    const unique = [...new Set(next)];
    this.cwds = unique.length > MAX_CWDS ? [...unique.slice(0, MAX_CWDS - 1), null] : unique;
  }

  /** Shell code given as text: read and judged like the command itself, in a shell of its own. */
  shell(run: ProgramRun, code: Arg, positional: readonly Arg[]): void {
    const text = code.value.exact;
    if (text === undefined) {
      if (code.fetched === true || (code.value.substitutions.length > 0 && this.substitutionsFetch(code)))
        run.cls("network-code", `${run.program} runs shell code fetched from the network`);
      else run.unknown(`${run.program} runs shell code known only at run time`);
      return;
    }
    if (this.depth >= MAX_DEPTH) return run.unknown("shell code nested too deep to follow");
    const parsed = this.cx.parse(text);
    if (!parsed.ok) {
      this.addLegacy(text);
      return run.unknown(`${run.program} runs shell code that ${parsed.why.replace(/^the command /, "")}`);
    }
    const vars = new Map(this.vars);
    positional.forEach((p, i) =>
      vars.set(String(i), p.below ?? (p.value.dynamic === undefined ? p.value.text : undefined)),
    );
    for (let i = positional.length; i < 10; i++) vars.set(String(i), undefined);
    const inner = new Analyser(this.cx, [...run.cwds], vars, new Set(this.defined), this.depth + 1, false);
    inner.carried = new Map(this.carried);
    const flow = inner.statement(parsed.script, run.stdin);
    for (const e of inner.effects) this.emit(e);
    for (const l of inner.legacy) this.addLegacy(l);
    if (inner.unjudgeable !== undefined) this.unjudgeable ??= inner.unjudgeable;
    if (inner.printedEnvironment !== undefined) this.printsEnvironment(inner.printedEnvironment);
    run.flow.fetched ||= flow.fetched;
  }

  private substitutionsFetch(a: Arg): boolean {
    // The substitutions were judged already; here only whether one fetched, judged again quietly.
    const quiet = new Analyser(
      this.cx,
      [...this.cwds],
      new Map(this.vars),
      new Set(this.defined),
      this.depth + 1,
      false,
    );
    return a.value.substitutions.some((s) => quiet.statement(s, NONE).fetched);
  }
}

/** printenv prints the environment, or the variables it names (counted when one may be a secret). */
function printenvPrints(run: ProgramRun, rest: readonly Arg[]): void {
  const names = rest.filter((a) => !(a.value.exact ?? "").startsWith("-"));
  if (names.length === 0) return run.printsEnvironment("printenv");
  const secret = names.find((a) => a.value.exact === undefined || secretName(a.value.exact));
  if (secret !== undefined) run.printsEnvironment(`printenv ${secret.value.exact ?? secret.value.text}`);
}
