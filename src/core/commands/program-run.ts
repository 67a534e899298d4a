import type { Role } from "../policy/catalogue.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";
import type { CommandClass, CommandVia, ConfiguredRemotes } from "../types.js";
import type { Analyser } from "./analyser.js";
import type { Arg, Below, Carries, Cwd, Run, Stdin } from "./api.js";
import { codeSettingKey, commandSettingKey } from "./git-settings.js";
import { cut, type Flow, literalArg } from "./flow.js";
import { sendTo } from "./send-to.js";
import { pathSpellings } from "./words.js";

/** Files that are streams, not files: reading or writing them touches nothing on disk. */
const STREAMS = /^(?:\/dev\/(?:null|stdin|stdout|stderr|tty|zero|random|urandom|fd\/\d+)|-)$/;

const CONTAINER_ROLES: Partial<Record<Role, CommandVia["container"]>> = {
  "read-tree": "place",
  place: "place",
  source: "place",
  move: "place",
  link: "place",
  delete: "remove",
};

/** One program's run: its working folders (which `-C dir` may change), its input, its effects. */

export class ProgramRun implements Run {
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
    // A weak role (a word that may be a path) keeps options out of it.
    const spelled = pathSpellings(a.value, extra.weak !== true);
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
    if (role === "host" || role === "remote") return sendTo(this, role, a, does);
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

  /** An egress effect of this program: where it sends (send-to.ts reads the word). */
  sends(spelled: string, does: string, extra: Partial<CommandVia> = {}): void {
    this.an.emit({ operation: "send", kind: "egress", spelled, via: this.via(does, extra) });
  }

  /** The machine's git remotes and ssh aliases, when the relay gives them. */
  get remotes(): ConfiguredRemotes | undefined {
    return this.an.remotes;
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
    this.takeOver(flow);
  }

  /** What a command run in this one's place fetched and lists is this one's (`env find …`, `time find …`). */
  takeOver(flow: Flow): void {
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

  sendsStdin(): void {
    const s = this.stdin;
    if (s.kind === "file") return this.role("send-data", s.arg);
    if (s.kind !== "none" && s.carries !== undefined) this.sendsCarried(s.carries);
  }

  /** Sends data made by other commands: the files they read, the environment they printed. */
  sendsCarried(c: Carries): void {
    for (const e of c.reads) {
      const extra: Partial<CommandVia> = { sent: true, word: e.via.word ?? e.spelled };
      if (e.via.container !== undefined) extra.container = e.via.container;
      if (e.via.tree === true) extra.tree = true;
      this.an.emit({
        operation: "read",
        kind: "path",
        spelled: e.spelled,
        via: this.via(`sends what ${e.via.program} read of`, extra),
      });
    }
    if (c.environment !== undefined)
      this.cls("sends", `${this.program} sends the environment (${c.environment})`, {
        carries: "the environment",
      });
    // A credential the server's environment holds, sent by its name (decision 0137).
    for (const v of c.variables ?? [])
      this.cls("sends", `${this.program} sends $${v}, a variable named like a credential`, {
        carries: `$${v}`,
      });
  }

  printsEnvironment(how: string): void {
    this.an.printsEnvironment(how);
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
