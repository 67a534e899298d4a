import type { Role } from "../policy/catalogue.js";
import { programName } from "../shell/program-name.js";
import type { Redirect, ShellWord, SimpleCommand, Statement } from "../shell/script-model.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";
import type { CommandClass, CommandVia } from "../types.js";
import type {
  Analysis,
  Arg,
  Below,
  CommandContext,
  CommandEffect,
  Cwd,
  Run,
  ShellState,
  Stdin,
} from "./api.js";
import { applyEntry } from "./apply.js";
import { codeSettingKey, commandSettingKey } from "./git-settings.js";
import { codeVariableProblem } from "./variables.js";
import { pathSpellings, wordValue } from "./words.js";

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

/** Files that are streams, not files: reading or writing them touches nothing on disk. */
const STREAMS = /^(?:\/dev\/(?:null|stdin|stdout|stderr|tty|zero|random|urandom|fd\/\d+)|-)$/;

const BUILTIN_NONE = new Set(
  "true false : echo printf test [ pwd type hash wait jobs let shift return exit break continue umask ulimit getopts times set shopt bg fg disown dirs caller enable help logout suspend kill complete compgen compopt popd history".split(
    " ",
  ),
);

type VarValue = string | undefined | Below;

interface Flow {
  /** Something here fetched from the network (its output may be what was fetched). */
  fetched: boolean;
  /** The command that fetched, for messages. */
  fetchedBy?: string;
  /** The words of its commands: what it may print (for a downstream xargs whose items are unknown). */
  words?: Arg[];
  /** It lists paths below these folders (find, ls, git ls-files), for a downstream xargs. */
  lists?: string[];
  /** The names those paths have, when known (find -name). */
  listNames?: string[];
}

const NONE: Stdin = { kind: "none" };
const literalArg = (s: string): Arg => ({ value: { exact: s, text: s, substitutions: [] } });
const cut = (s: string): string => (s.length > 200 ? `${s.slice(0, 197)}...` : s);

class Analyser {
  readonly effects: CommandEffect[] = [];
  readonly legacy: string[] = [];
  unjudgeable?: string;
  private readonly seen = new Set<string>();

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
    // A read that sends the file out is kept beside a plain read of it (`nc h p < f`): it says more.
    const key = `${e.operation}\u0000${e.kind}\u0000${e.spelled}\u0000${e.via.class ?? ""}\u0000${e.via.container ?? ""}\u0000${e.via.command}\u0000${e.via.sent === true ? "sent" : ""}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.effects.push(e);
  }

  addLegacy(text: string): void {
    if (text.trim() !== "" && !this.legacy.includes(text)) this.legacy.push(text);
  }

  /** A word as an argument: its value, and what it stands for when a variable holds found files. */
  arg(word: ShellWord): Arg {
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
        s.stages.forEach((stage, i) => {
          const input: Stdin =
            i === 0
              ? stdin
              : {
                  kind: "pipe",
                  network,
                  words,
                  ...(items === undefined ? {} : { items }),
                  ...(from === undefined ? {} : { from }),
                };
          last = this.statement(stage, input);
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
        const saved = { cwds: [...this.cwds], vars: new Map(this.vars) };
        const f = this.statement(s.body, input);
        this.cwds = saved.cwds;
        this.vars = saved.vars;
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
        const values = s.values?.map((w) => this.arg(w));
        let fetched = false;
        for (const v of values ?? []) fetched = this.substitutions(v) || fetched;
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
        if (r.heredoc.expands)
          for (const p of r.heredoc.parts)
            if (p.kind === "subst" || p.kind === "procsub") this.statement(p.body, NONE);
        input = { kind: "heredoc", text: r.heredoc.text, expands: r.heredoc.expands };
        continue;
      }
      if (r.target === undefined) continue;
      const target = this.arg(r.target);
      this.substitutions(target);
      const run = this.runFor(program, command, input);
      if (r.op === "<<<") {
        input = { kind: "string", arg: target };
        continue;
      }
      if (r.op === ">&" || r.op === "<&") {
        // `2>&1`, `>&-`: descriptors; `>&file` writes the file.
        if (/^(?:\d+|-)$/.test(target.value.exact ?? "") || r.op === "<&") continue;
      }
      if (r.op === "<") {
        run.role("read", target, "reads from");
        input = { kind: "file", arg: target };
      } else if (r.op === "<>") {
        run.role("readwrite", target, "opens");
      } else run.role("write", target, r.op.includes(">>") ? "appends to" : "writes");
    }
    return input;
  }

  simple(cmd: SimpleCommand, stdin: Stdin): Flow {
    let fetched = false;
    const args = cmd.words.map((w) => this.arg(w));
    const fetchedArgs = new Set<Arg>();
    for (const a of args)
      if (this.substitutions(a)) {
        fetchedArgs.add(a);
        a.fetched = true;
        fetched = true;
      }
    // Whole: a question or a refusal shows what runs, and a cut could hide `; touch PAYLOAD`.
    const source = cmd.source;
    const input = this.redirects(cmd.redirects, args[0]?.value.exact ?? "(command)", source, stdin);
    const standalone = args.length === 0;
    for (const as of [...cmd.assigns, ...cmd.declares]) {
      const value = as.value === undefined ? undefined : this.arg(as.value);
      if (value !== undefined && this.substitutions(value)) fetched = true;
      for (const e of as.elements ?? []) this.substitutions(this.arg(e));
      const run = this.runFor(
        standalone ? "(assignment)" : (args[0]?.value.exact ?? "(command)"),
        source,
        input,
      );
      if (value !== undefined) this.variable(run, as.name, value);
      if (standalone || cmd.declares.includes(as))
        this.vars.set(
          as.name,
          value === undefined
            ? this.vars.get(as.name)
            : value.value.dynamic === undefined
              ? value.value.text
              : undefined,
        );
    }
    if (standalone) return { fetched };
    const flow = this.invoke(args[0] as Arg, args.slice(1), input, source, fetchedArgs);
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
    if (this.builtin(run, name, rest, fetchedArgs)) return run.flow;
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
    return run.flow;
  }

  /** Shell builtins and keywords that change the shell or run other commands. */
  builtin(run: ProgramRun, name: string, rest: Arg[], fetchedArgs: ReadonlySet<Arg>): boolean {
    switch (name) {
      case "cd":
      case "pushd": {
        const dir = rest.find((a) => !/^-[LPe@]+$/.test(a.value.exact ?? "")) ?? literalArg("~");
        this.changeDir(dir);
        run.cls("none", `${name} changes the working folder`);
        return true;
      }
      case "export":
      case "declare":
      case "typeset":
      case "local":
      case "readonly":
      case "unset":
        if (name === "unset")
          for (const a of rest)
            if (a.value.exact !== undefined && !a.value.exact.startsWith("-"))
              this.vars.set(a.value.exact, "");
        run.cls("none", `${name} sets variables`);
        return true;
      case "read":
      case "mapfile":
      case "readarray":
        for (const a of rest)
          if (a.value.exact !== undefined && /^[A-Za-z_]\w*$/.test(a.value.exact))
            this.vars.set(a.value.exact, undefined);
        if (
          name !== "read" ||
          !rest.some((a) => a.value.exact !== undefined && /^[A-Za-z_]\w*$/.test(a.value.exact))
        )
          this.vars.set("REPLY", undefined);
        run.cls("none", `${name} reads its standard input into variables`);
        return true;
      case "alias":
        for (const a of rest) {
          const t = a.value.exact ?? "";
          const eq = t.indexOf("=");
          if (eq <= 0) continue;
          this.defined.add(t.slice(0, eq));
          run.shell(literalArg(t.slice(eq + 1)));
        }
        run.cls("none", "alias defines commands");
        return true;
      case "source":
      case ".": {
        const file = rest[0];
        if (file === undefined) return (run.unknown(`${name} without a file`), true);
        if (file.value.procsub !== undefined) {
          if (fetchedArgs.has(file)) run.cls("network-code", `${name} runs code fetched from the network`);
          else run.unknown(`${name} runs what another command prints`);
          return true;
        }
        run.role("exec", file, "runs in this shell");
        for (const a of rest.slice(1)) run.role("candidate", a);
        return true;
      }
      case "eval": {
        if (rest.some((a) => fetchedArgs.has(a)))
          return (run.cls("network-code", "eval runs code fetched from the network"), true);
        if (rest.some((a) => a.value.exact === undefined))
          return (run.unknown("eval runs code known only at run time"), true);
        run.shell(literalArg(rest.map((a) => a.value.exact).join(" ")));
        return true;
      }
      case "trap": {
        const code = rest[0];
        if (
          code !== undefined &&
          code.value.exact !== undefined &&
          !/^-/.test(code.value.exact) &&
          rest.length > 1
        )
          run.shell(code);
        run.cls("none", "trap sets what runs on a signal");
        return true;
      }
      case "exec":
      case "builtin":
      case "time":
      case "coproc":
      case "command": {
        let i = 0;
        while (i < rest.length && /^-[a-zA-Z]+$/.test(rest[i]?.value.exact ?? "")) i++;
        if (name === "command" && rest.slice(0, i).some((a) => /[vV]/.test(a.value.exact ?? "")))
          return (run.cls("reads", "command -v looks a program up"), true);
        if (
          name === "coproc" &&
          rest.length > i + 1 &&
          /^[A-Za-z_]\w*$/.test(rest[i]?.value.exact ?? "") &&
          rest[i + 1] !== undefined
        )
          i++;
        const inner = rest.slice(i);
        if (inner.length === 0) return (run.cls("none", `${name} changes the shell`), true);
        const flow = this.invoke(inner[0] as Arg, inner.slice(1), run.stdin, run.command, fetchedArgs);
        run.flow.fetched ||= flow.fetched;
        if (flow.lists !== undefined) run.flow.lists = flow.lists;
        return true;
      }
      case "fc":
        run.unknown("fc runs an editor and then the edited commands");
        return true;
      default:
        if (!BUILTIN_NONE.has(name)) return false;
        if (name === "printf") {
          const v = rest.findIndex((a) => a.value.exact === "-v");
          const target = rest[v + 1]?.value.exact;
          if (v >= 0 && target !== undefined) this.vars.set(target, undefined);
        }
        run.cls(name === "history" ? "reads" : "none", `${name} is a shell builtin`);
        return true;
    }
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
    const flow = inner.statement(parsed.script, run.stdin);
    for (const e of inner.effects) this.emit(e);
    for (const l of inner.legacy) this.addLegacy(l);
    if (inner.unjudgeable !== undefined) this.unjudgeable ??= inner.unjudgeable;
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

const CONTAINER_ROLES: Partial<Record<Role, CommandVia["container"]>> = {
  "read-tree": "place",
  place: "place",
  source: "place",
  move: "place",
  link: "place",
  delete: "remove",
};

/** One program's run: its working folders (which `-C dir` may change), its input, its effects. */
class ProgramRun implements Run {
  readonly flow: Flow = { fetched: false };
  private unknownSaid = false;
  get interactive(): boolean {
    return this.an.interactive;
  }

  constructor(
    private readonly an: Analyser,
    readonly program: string,
    readonly command: string,
    readonly stdin: Stdin,
    public cwds: Cwd[],
  ) {}

  private via(does: string, extra: Partial<CommandVia> = {}): CommandVia {
    return { program: this.program, command: cut(this.command), does, ...extra };
  }

  /** Every spelling of a path word, placed in each working folder. */
  private path(operation: "read" | "write", a: Arg, does: string, extra: Partial<CommandVia> = {}): void {
    const spelled = pathSpellings(a.value);
    if (spelled.unjudgeable !== undefined) this.an.unjudgeable ??= spelled.unjudgeable;
    const via = this.via(does, { ...extra, word: a.value.exact ?? a.value.text });
    for (const w of spelled.words) {
      if (STREAMS.test(w)) continue;
      for (const c of this.cwds) {
        if (!isRelativeWord(w) || c === undefined) this.an.emit({ operation, kind: "path", spelled: w, via });
        else if (c === null)
          this.unknown(`${this.program} names ${JSON.stringify(w)} in a folder known only at run time`);
        else this.an.emit({ operation, kind: "path", spelled: inWorkdir(c, w), via });
      }
    }
  }

  role(role: Role, a: Arg, does?: string): void {
    if (a.below !== undefined) return this.belowRole(role, a.below, does);
    if (a.alternatives !== undefined && role !== "text") {
      // Not known before the run, but it is one of these words: each is judged in the role too.
      for (const alt of a.alternatives) this.role(role, alt, does);
    }
    if (role === "host" || role === "remote") return this.sendTo(role, a, does);
    if (a.value.dynamic !== undefined && role !== "text" && role !== "command")
      return this.unknown(`${this.program}: ${a.value.dynamic}`);
    const container = CONTAINER_ROLES[role];
    const tree = role === "delete" || (role === "mode" && does?.includes("everything") === true);
    const extra: Partial<CommandVia> = {};
    if (container !== undefined) extra.container = container;
    if (role === "mode" && tree) extra.container = "place";
    if (tree) extra.tree = true;
    if (does === "downloads into") extra.downloaded = true;
    if (role === "mode" || role === "candidate") extra.weak = true;
    if (role === "send-data") extra.sent = true;
    switch (role) {
      case "text":
      case "script:text":
        return;
      case "read":
      case "read-tree":
      case "source":
      case "script-file:text":
        return this.path("read", a, does ?? (role === "read" ? "reads" : "reads everything in"), extra);
      case "send-data":
        this.path("read", a, does ?? "sends the content of", extra);
        return this.cls("sends", `${this.program} sends a file's content out`);
      case "write":
      case "place":
      case "link":
      case "mode":
        return this.path(
          "write",
          a,
          does ??
            {
              write: "writes",
              place: "puts files into",
              link: "makes a link at",
              mode: "changes the mode of",
            }[role],
          extra,
        );
      case "readwrite":
        this.path("read", a, does ?? "edits", extra);
        return this.path("write", a, does ?? "edits", extra);
      case "delete":
        return this.path("write", a, does ?? "removes", extra);
      case "move":
        this.path("read", a, does ?? "moves", extra);
        return this.path("write", a, does ?? "moves", extra);
      case "candidate":
        this.path("read", a, does ?? "names", extra);
        return this.path("write", a, does ?? "names", extra);
      case "exec":
      case "script-file:shell":
      case "script-file:code":
      case "script-file:sed":
      case "script-file:awk": {
        if (a.value.procsub !== undefined) {
          // `bash <(curl …)`: the code is what another command prints.
          if (a.fetched === true)
            return this.cls("network-code", `${this.program} runs code fetched from the network`);
          return this.unknown(`${this.program} runs what another command prints`);
        }
        this.path("read", a, does ?? "runs", extra);
        const file = a.value.exact ?? a.value.text;
        for (const c of this.cwds)
          this.an.emit({
            operation: "exec",
            kind: "command",
            spelled: this.command,
            via: this.via(`${this.program} runs ${file}`, {
              class: "project",
              runs: c === undefined || c === null || !isRelativeWord(file) ? file : inWorkdir(c, file),
              ...(c === undefined || c === null ? {} : { cwd: c }),
            }),
          });
        return;
      }
      case "url":
      case "send-url": {
        const url = a.value.exact ?? a.value.text;
        // The answer comes back (a fetch, which may taint); with data, the request is a send too.
        this.an.emit({
          operation: "read",
          kind: "url",
          spelled: url,
          via: this.via(role === "url" ? "fetches" : "sends to"),
        });
        if (role === "send-url")
          this.an.emit({
            operation: "send",
            kind: "egress",
            spelled: url,
            via: this.via(does ?? "sends data to"),
          });
        this.flow.fetched = true;
        this.flow.fetchedBy ??= this.command;
        return;
      }
      case "command":
        return this.runCommand([a]);
      case "cwd":
        return this.chdir(a);
      case "script:shell":
        return this.shell(a);
      case "script:code":
      case "script:sed":
      case "script:awk":
        this.an.addLegacy(a.value.exact ?? a.value.text);
        return this.cls(
          "unknown",
          `${this.program} runs code given in the command: its effects are not known`,
        );
      case "setting":
        return this.setting(a);
    }
  }

  /**
   * Where the program sends (decision 0120): a host, `user@host`, `host:port` or URL is an egress
   * effect, canonicalised with tool egress (effects/egress.ts). A word known only at run time is a
   * destination the command does not show; a bare git remote name (`origin`) names none here.
   */
  private sendTo(role: "host" | "remote", a: Arg, does: string | undefined): void {
    const word = a.value.exact;
    if (
      role === "remote" &&
      word !== undefined &&
      !/^[a-z][\w+.-]*:\/\/|^(?:[^\s@/]+@)?[^\s/:]+:/i.test(word)
    )
      return;
    // Spelled "" when the command does not show it: a destination known only at run time.
    this.an.emit({
      operation: "send",
      kind: "egress",
      spelled: word ?? "",
      via: this.via(does ?? "sends data to", word === undefined ? { word: a.value.text } : {}),
    });
  }

  /** A found file (`{}` of find -exec, an xargs item): any path below the roots. */
  private belowRole(role: Role, below: Below, does: string | undefined): void {
    const roots = below.roots.map((r) => literalArg(r));
    // A sample name for each glob a found file is known to match (`*.pem` → `x.pem`), in each root.
    const samples = (below.names ?? []).flatMap((n) =>
      below.roots.map((r) =>
        literalArg(
          inWorkdir(
            r,
            n
              .replace(/^\*\//, "")
              .replace(/\[!?\^?(.)[^\]]*\]/g, "$1")
              .replace(/[*?]/g, "x"),
          ),
        ),
      ),
    );
    const read = (d: string) => {
      roots.forEach((r) => this.path("read", r, d, { container: "place" }));
      samples.forEach((s) => this.path("read", s, d));
    };
    const write = (d: string, container: "place" | "remove") =>
      roots.forEach((r) => this.path("write", r, d, { container, tree: true }));
    switch (role) {
      case "text":
      case "host":
      case "remote":
      case "script:text":
        return;
      case "read":
      case "read-tree":
      case "source":
      case "send-data":
      case "script-file:text":
        read(does ?? "reads files in");
        if (role === "send-data") this.cls("sends", `${this.program} sends files out`);
        return;
      case "delete":
        return write(does ?? "removes files in", "remove");
      case "write":
      case "readwrite":
      case "place":
      case "move":
      case "mode":
      case "link":
      case "candidate":
        read(does ?? "changes files in");
        return write(does ?? "changes files in", "place");
      default:
        return this.unknown(`${this.program} runs or fetches a found file`);
    }
  }

  cls(cls: CommandClass, does: string, extra: Partial<CommandVia> = {}): void {
    if (cls === "unknown") this.an.addLegacy(this.command);
    if (cls === "project") {
      for (const c of this.cwds)
        this.an.emit({
          operation: "exec",
          kind: "command",
          spelled: this.command,
          via: this.via(does, { class: cls, ...(c === undefined || c === null ? {} : { cwd: c }), ...extra }),
        });
      return;
    }
    if (cls === "fetch" || cls === "sends") {
      this.flow.fetched = true;
      this.flow.fetchedBy ??= this.command;
    }
    this.an.emit({
      operation: "exec",
      kind: "command",
      spelled: this.command,
      via: this.via(does, { class: cls, ...extra }),
    });
  }

  unknown(why: string): void {
    if (this.unknownSaid) return;
    this.unknownSaid = true;
    this.cls("unknown", why);
  }

  wrap(args: Arg[]): void {
    this.runCommand(args);
  }

  private runCommand(args: Arg[]): void {
    const [first, ...rest] = args;
    if (first === undefined) return;
    const saved = this.an.cwds;
    this.an.cwds = this.cwds;
    const flow = this.an.invoke(first, rest, this.stdin, this.command);
    this.an.cwds = saved;
    this.flow.fetched ||= flow.fetched;
    if (flow.lists !== undefined) this.flow.lists = flow.lists;
    if (flow.listNames !== undefined) this.flow.listNames = flow.listNames;
  }

  shell(code: Arg, positional: Arg[] = []): void {
    this.an.shell(this, code, positional);
  }

  chdir(dir: Arg): void {
    const d = dir.value.exact ?? (dir.value.dynamic === undefined ? dir.value.text : undefined);
    this.cwds = this.cwds.map((c) =>
      d === undefined || c === null ? null : !isRelativeWord(d) || c === undefined ? d : inWorkdir(c, d),
    );
  }

  variable(name: string, value: Arg): void {
    this.an.variable(this, name, value);
  }

  legacy(text: string): void {
    this.an.addLegacy(text);
  }

  lists(roots: string[], names?: string[]): void {
    this.flow.lists = roots;
    if (names !== undefined) this.flow.listNames = names;
  }

  /** `git -c key=value`: a key that names a program makes the value code run now. */
  private setting(a: Arg): void {
    const t = a.value.exact;
    if (t === undefined) return this.unknown(`${this.program}: a setting known only at run time`);
    const eq = t.indexOf("=");
    const key = eq < 0 ? t : t.slice(0, eq);
    if (!codeSettingKey(key)) return;
    if (eq >= 0 && commandSettingKey(key)) return this.shell(literalArg(t.slice(eq + 1)));
    this.unknown(`${this.program} -c ${key}: a setting that names code to run`);
  }
}

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
  an.statement(script, stdin);
  if (cx.shell !== undefined) {
    cx.shell.cwds = an.cwds;
    cx.shell.vars = new Map(
      [...an.vars].filter((e): e is [string, string | undefined] => typeof e[1] !== "object"),
    );
    cx.shell.defined = an.defined;
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
