import { programName } from "../shell/program-name.js";
import type { ConfiguredRemotes } from "../types.js";
import type { Redirect, ShellWord, SimpleCommand, Statement } from "../shell/script-model.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";
import type { Arg, Below, Carries, CommandContext, CommandEffect, Cwd, Run, Stdin } from "./api.js";
import { applyEntry } from "./apply.js";
import { runBuiltin } from "./builtins.js";
import { carriesOf, cut, type Flow, NONE, secretName, type VarValue } from "./flow.js";
import { ProgramRun } from "./program-run.js";
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

/** How deep code inside code is followed (`sh -c "bash -c '…'"`). */
const MAX_DEPTH = 4;
/** Working folders followed at once; past this the folder is known only at run time. */
const MAX_CWDS = 8;
/** Values of a `for` loop's variable followed one by one. */
const MAX_LOOP_VALUES = 8;

/** A process's environment read as a file: printing it is printing the environment. */
const PROC_ENVIRON = /^\/proc\/[^/]+\/environ$/;

/** Whether a collector holds anything: a send that carries it gives a secret (or a file) away. */
const holds = (c: Carries): boolean =>
  c.reads.length > 0 || c.environment !== undefined || (c.variables?.length ?? 0) > 0;

export class Analyser {
  readonly effects: CommandEffect[] = [];
  readonly legacy: string[] = [];
  unjudgeable?: string;
  private readonly seen = new Set<string>();
  /** Open collectors of what may flow on as data (tap): reads, and prints of the environment. */
  private readonly taps: Carries[] = [];
  /** Sends and fetches emitted so far, counted before de-duplication. */
  private sends = 0;
  /** What printed the environment anywhere in this walk (an `sh -c env` tells its caller). */
  printedEnvironment?: string;
  /** What the variables set so far hold of secret data, by name (decision 0137). */
  carried = new Map<string, Carries>();

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
  ) {}

  emit(e: CommandEffect): void {
    if (e.kind === "egress" || e.kind === "url") this.sends++;
    if (e.operation === "read" && e.kind === "path" && e.via.sent !== true)
      for (const t of this.taps) {
        t.reads.push(e);
        if (PROC_ENVIRON.test(e.spelled)) t.environment ??= e.spelled;
      }
    // A read that sends the file out is kept beside a plain read of it (`nc h p < f`): it says more.
    const key = `${e.operation}\u0000${e.kind}\u0000${e.spelled}\u0000${e.via.class ?? ""}\u0000${e.via.container ?? ""}\u0000${e.via.command}\u0000${e.via.sent === true ? "sent" : ""}\u0000${e.via.carries ?? ""}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.effects.push(e);
  }

  /** Data a word brings along (a variable holding a secret file): every open tap carries it. */
  private bring(c: Carries): void {
    for (const t of this.taps) {
      for (const r of c.reads) if (!t.reads.includes(r)) t.reads.push(r);
      if (c.environment !== undefined) t.environment ??= c.environment;
      for (const v of c.variables ?? []) if (!(t.variables ??= []).includes(v)) t.variables.push(v);
    }
  }

  /**
   * Sets what a variable holds of secret data (decision 0137): what the statement that set it
   * read or printed of the environment. A value made of plain data clears it.
   */
  hold(name: string, c: Carries | undefined): void {
    if (c !== undefined && holds(c)) this.carried.set(name, c);
    else this.carried.delete(name);
  }

  /** A program printed the environment: every open tap carries it. */
  printsEnvironment(how: string): void {
    this.printedEnvironment ??= how;
    for (const t of this.taps) t.environment ??= how;
  }

  /** Runs `f` and collects what it reads and prints of the environment: data a later send may carry. */
  tap<T>(f: () => T, from?: Carries): [T, Carries] {
    const t: Carries = { reads: [...(from?.reads ?? [])] };
    if (from?.environment !== undefined) t.environment = from.environment;
    if (from?.variables !== undefined) t.variables = [...from.variables];
    this.taps.push(t);
    try {
      return [f(), t];
    } finally {
      this.taps.splice(this.taps.lastIndexOf(t), 1);
    }
  }

  addLegacy(text: string): void {
    if (text.trim() !== "" && !this.legacy.includes(text)) this.legacy.push(text);
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

  statement(s: Statement, stdin: Stdin): Flow {
    switch (s.kind) {
      case "simple":
        return this.simple(s, stdin);
      case "sequence": {
        let fetched = false;
        let lists: string[] | undefined;
        const words: Arg[] = [];
        let fetchedBy: string | undefined;
        for (const item of s.items) {
          const f = this.statement(item, stdin);
          fetched ||= f.fetched;
          fetchedBy ??= f.fetchedBy;
          lists = f.lists ?? lists;
          words.push(...(f.words ?? []));
        }
        return {
          fetched,
          words,
          ...(lists === undefined ? {} : { lists }),
          ...(fetchedBy === undefined ? {} : { fetchedBy }),
        };
      }
      case "pipeline": {
        let network = false;
        let from: string | undefined;
        let items: Below | undefined;
        let words: Arg[] = [];
        let last: Flow = { fetched: false };
        // What each stage may print: all that the stages before it read (and the pipeline's input).
        let carries: Carries = { reads: [], ...carriesOf(stdin) };
        s.stages.forEach((stage, i) => {
          const input: Stdin =
            i === 0
              ? stdin
              : {
                  kind: "pipe",
                  network,
                  words,
                  carries,
                  ...(items === undefined ? {} : { items }),
                  ...(from === undefined ? {} : { from }),
                };
          [last, carries] = this.tap(() => this.statement(stage, input), carries);
          network ||= last.fetched;
          from ??= last.fetchedBy;
          items =
            last.lists === undefined
              ? undefined
              : last.listNames === undefined
                ? { roots: last.lists }
                : { roots: last.lists, names: last.listNames };
          words = last.words ?? [];
        });
        return { fetched: network || last.fetched, ...(from === undefined ? {} : { fetchedBy: from }) };
      }
      case "group": {
        const input = this.redirects(s.redirects, "(group)", s.source, stdin);
        if (!s.subshell) return this.statement(s.body, input);
        const saved = { cwds: [...this.cwds], vars: new Map(this.vars), carried: new Map(this.carried) };
        const f = this.statement(s.body, input);
        this.cwds = saved.cwds;
        this.vars = saved.vars;
        this.carried = saved.carried;
        return f;
      }
      case "function": {
        // The body is judged as if it runs (it may, once called); a call to it adds nothing.
        this.defined.add(s.name);
        const saved = new Map(this.vars);
        for (const p of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"]) this.vars.set(p, undefined);
        const f = this.statement(s.body, NONE);
        this.vars = saved;
        return f;
      }
      case "for": {
        let fetched = false;
        // The loop's variable holds what its values carry (`for v in $(cat key)`, decision 0137).
        const [values, held] = this.tap(() => {
          const values = s.values?.map((w) => this.arg(w));
          for (const v of values ?? []) fetched = this.substitutions(v) || fetched;
          return values;
        });
        if (s.variable !== undefined) this.hold(s.variable, held);
        const plain = values?.every((v) => v.value.dynamic === undefined && v.below === undefined) === true;
        if (s.variable === undefined) return this.statement(s.body, stdin);
        if (values !== undefined && plain && values.length > 0 && values.length <= MAX_LOOP_VALUES) {
          for (const v of values) {
            this.vars.set(s.variable, v.value.text);
            fetched = this.statement(s.body, stdin).fetched || fetched;
          }
          return { fetched };
        }
        this.vars.set(s.variable, undefined);
        return { fetched: this.statement(s.body, stdin).fetched || fetched };
      }
      case "test": {
        let fetched = false;
        for (const w of s.words) fetched = this.substitutions(this.arg(w)) || fetched;
        return { fetched };
      }
    }
  }

  /** Effects of redirections, and the standard input they give the command. */
  redirects(list: readonly Redirect[], program: string, command: string, stdin: Stdin): Stdin {
    let input = stdin;
    for (const r of list) {
      if (r.heredoc !== undefined) {
        const doc = r.heredoc;
        const [, carries] = this.tap(() => {
          if (doc.expands)
            for (const p of doc.parts)
              if (p.kind === "subst" || p.kind === "procsub") this.statement(p.body, NONE);
        });
        input = { kind: "heredoc", text: doc.text, expands: doc.expands, carries };
        continue;
      }
      if (r.target === undefined) continue;
      const word = r.target;
      // A variable in the word is data too (`nc h 80 <<< "$K"`), like its substitutions.
      const [target, carries] = this.tap(() => {
        const target = this.arg(word);
        this.substitutions(target);
        return target;
      });
      const run = this.runFor(program, command, input);
      if (r.op === "<<<") {
        input = { kind: "string", arg: target, carries };
        continue;
      }
      if (r.op === ">&" || r.op === "<&") {
        // `2>&1`, `>&-`: descriptors; `>&file` writes the file.
        if (/^(?:\d+|-)$/.test(target.value.exact ?? "") || r.op === "<&") continue;
      }
      if (r.op === "<") {
        // What the file holds is the program's input: `read K < ~/.netrc` keeps it in K.
        const [, read] = this.tap(() => run.role("read", target, "reads from"));
        input = holds(read) ? { kind: "file", arg: target, carries: read } : { kind: "file", arg: target };
      } else if (r.op === "<>") {
        run.role("readwrite", target, "opens");
      } else run.role("write", target, r.op.includes(">>") ? "appends to" : "writes");
    }
    return input;
  }

  simple(cmd: SimpleCommand, stdin: Stdin): Flow {
    let fetched = false;
    const fetchedArgs = new Set<Arg>();
    // What the arguments' substitutions read is in the words the program gets (`dig $(cat f).x.h`),
    // and so is what their variables hold (`curl -d "$K" h` after `K=$(cat ~/.ssh/id_rsa)`).
    const [args, argCarries] = this.tap(() => {
      const args = cmd.words.map((w) => this.arg(w));
      for (const a of args)
        if (this.substitutions(a)) {
          fetchedArgs.add(a);
          a.fetched = true;
          fetched = true;
        }
      return args;
    });
    // Whole: a question or a refusal shows what runs, and a cut could hide `; touch PAYLOAD`.
    const source = cmd.source;
    const input = this.redirects(cmd.redirects, args[0]?.value.exact ?? "(command)", source, stdin);
    const standalone = args.length === 0;
    for (const as of [...cmd.assigns, ...cmd.declares]) {
      const [value, held] = this.tap(() => {
        const value = as.value === undefined ? undefined : this.arg(as.value);
        if (value !== undefined && this.substitutions(value)) fetched = true;
        return value;
      });
      for (const e of as.elements ?? []) this.substitutions(this.arg(e));
      const run = this.runFor(
        standalone ? "(assignment)" : (args[0]?.value.exact ?? "(command)"),
        source,
        input,
      );
      if (value !== undefined) this.variable(run, as.name, value);
      if (standalone || cmd.declares.includes(as)) {
        if (value !== undefined) this.hold(as.name, held);
        this.vars.set(
          as.name,
          value === undefined
            ? this.vars.get(as.name)
            : value.value.dynamic === undefined
              ? value.value.text
              : undefined,
        );
      }
    }
    if (standalone) return { fetched };
    const sendsBefore = this.sends;
    const flow = this.invoke(args[0] as Arg, args.slice(1), input, source, fetchedArgs);
    // A program that sends or fetches carries its words out, and with them what made them.
    if (this.sends > sendsBefore && holds(argCarries))
      this.runFor(args[0]?.value.exact ?? "(command)", source, input).sendsCarried(argCarries);
    return {
      fetched: fetched || flow.fetched,
      words: args.slice(1),
      ...(flow.lists === undefined ? {} : { lists: flow.lists }),
      ...(flow.listNames === undefined ? {} : { listNames: flow.listNames }),
      ...(flow.fetchedBy === undefined ? {} : { fetchedBy: flow.fetchedBy }),
    };
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
