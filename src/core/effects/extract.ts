import { parseStrictJson } from "../json/strict-json.js";
import { analyseArgv, analyseCommand } from "../commands/analyse.js";
import type { Analysis, CommandContext, ShellState, Stdin } from "../commands/api.js";
import type { CommandSetup } from "../commands/setup.js";
import { programName } from "../shell/program-name.js";
import type { CommandVia, Effect, Operation } from "../types.js";
import { isOutputName, isPathName } from "./arg-names.js";
import { commandReadings } from "./command-tokens.js";
import { type ArgRole, knownTool, type KnownTool, nameWords, verbOperations } from "./tool-table.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";

export { inWorkdir, isRelativeWord };

/**
 * Effects of one call, before canonicalisation. See docs/decisions/0021-path-positions.md for
 * what counts as a path position. Every string is visited (values and object keys, at any depth,
 * inside JSON embedded in strings too); a call beyond the budget is not judged partially: the
 * whole extraction fails, and the decision is "too large to judge".
 */
export const BUDGET = {
  /** Nesting of arrays/objects, counting each embedded JSON document as one more level. */
  maxDepth: 48,
  /** Strings examined (values, keys and command words). */
  maxStrings: 50_000,
  /** Characters in those strings. */
  maxChars: 8 * 1024 * 1024,
} as const;

export type Extraction =
  | {
      ok: true;
      effects: Effect[];
      /** The state a persistent shell is left in, for the session to keep if the call goes ahead. */
      shell?: { id: string; state: ShellState };
    }
  | { ok: false; error: string };

/** Argument names that carry the command of an exec-class tool, in order of preference. */
export const COMMAND_ARGS = ["command", "cmd", "code", "script", "input", "stdin", "args", "argv"];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Arguments that set where an exec call's command runs. */
const WORKDIR_ARGS = ["cwd", "workdir", "working_directory", "workingDirectory", "directory", "dir"];

const URL_RE = /^\s*https?:\/\//i;

export function isUrl(s: string): boolean {
  return URL_RE.test(s);
}

/**
 * Free text: a line break inside the text nearly always means a file body or a message. Leading
 * and trailing line breaks do not count: a server that trims its input would still open
 * `~/.bashrc\n`. But a line break is a valid character in a Linux file name, so text with one
 * is still a path when its argument's name says path or output, or when it starts like a path
 * (startsLikePath); see docs/decisions/0058-line-breaks-outputs-and-remote-paths.md.
 */
function isProse(s: string): boolean {
  const t = s.trim();
  // Four searches rather than one regular expression: several times faster on megabyte strings.
  return t.includes("\n") || t.includes("\r") || t.includes("\u2028") || t.includes("\u2029");
}

/**
 * How a path starts and prose does not: `/`, `\`, `~`, `$VAR`, `%VAR%`, `C:`, `./`, `../`,
 * `file:`, or a first line that is one word with a separator in it (`conf.d/a` + line break + `b`).
 * A first line with a space (`src/x.ts: fix` + more lines) is a message.
 */
const PATH_START =
  /^(?:[\\/~$%]|\.\.?[\\/]|[A-Za-z]:[\\/]|file:|[^\s\\/]+[\\/][^\s]*(?:[\r\n\u2028\u2029]|$))/i;

function startsLikePath(s: string): boolean {
  return PATH_START.test(s.trimStart());
}

/**
 * A string that parses as a JSON object or array is walked as structure too. Parsed strictly:
 * with duplicate names we cannot know which value the server will use, so the call is refused.
 */
function embeddedJson(s: string, at: string): unknown {
  const t = s.trim();
  // Only objects and arrays: `42` or `true` in a path position is a name, not structure. Text that
  // merely starts with a bracket fails to parse below.
  if (t[0] !== "{" && t[0] !== "[") return undefined;
  const parsed = parseStrictJson(t, BUDGET.maxDepth);
  if (parsed.ok) return parsed.value;
  if (parsed.error.startsWith("not valid JSON")) return undefined; // just text in brackets
  throw new Unjudgeable(`JSON inside the string at ${at}: ${parsed.error}`);
}

/** The arguments are beyond the budget: judged as "too large to judge". */
class OverBudget extends Error {}
/** Something in the arguments cannot be read one way only. */
class Unjudgeable extends Error {}

/**
 * A word git receives on its command line is text, unless it starts with `-`: git then reads it
 * as an option (`--output=~/.zshrc` writes that file). No honest revision or branch starts so.
 */
function gitWord(value: unknown, at: string): void {
  const words = Array.isArray(value) ? value : [value];
  for (const w of words)
    if (typeof w === "string" && w.trimStart().startsWith("-"))
      throw new Unjudgeable(
        `git would read the argument at ${at} (${JSON.stringify(w.slice(0, 80))}) as an option, not a revision or a name`,
      );
}

type Role = ArgRole | "generic";

class Walker {
  readonly effects: Effect[] = [];
  private readonly seen = new Set<string>();
  private strings = 0;
  private chars = 0;

  constructor(
    /** How strings in generic positions are judged: one reading, or both when the name says both. */
    private readonly genericOps: readonly Operation[],
    private readonly execClass: boolean,
    /** The working directories an exec call names for its command (`cwd`, `workdir`, …). */
    private readonly workdirs: ReadonlyArray<{ at: string; dir: string }> = [],
  ) {}

  count(s: string): void {
    this.strings += 1;
    this.chars += s.length;
    if (this.strings > BUDGET.maxStrings)
      throw new OverBudget(`more than ${BUDGET.maxStrings} strings in the arguments`);
    if (this.chars > BUDGET.maxChars)
      throw new OverBudget(`more than ${BUDGET.maxChars} characters of strings in the arguments`);
  }

  add(operation: Operation, kind: Effect["kind"], at: string, spelled: string, via?: CommandVia): void {
    // One judgement per distinct value: 10,000 copies of a harmless string cost one canonicalisation.
    const key =
      via === undefined
        ? `${operation}\u0000${kind}\u0000${spelled}`
        : `${operation}\u0000${kind}\u0000${spelled}\u0000${via.class ?? ""}\u0000${via.container ?? ""}\u0000${via.does}\u0000${via.runs ?? ""}\u0000${via.cwd ?? ""}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.effects.push(
      via === undefined ? { operation, kind, at, spelled } : { operation, kind, at, spelled, via },
    );
  }

  /**
   * A command read with the bash grammar and judged by what its programs do. Whatever the
   * catalogue does not know is read the old way too (every word a path), and takes the exec
   * class action through its `unknown` effect.
   */
  analysed(analysis: Analysis, at: string, depth: number): void {
    if (analysis.unjudgeable !== undefined) throw new Unjudgeable(`${analysis.unjudgeable} (at ${at})`);
    for (const e of analysis.effects) {
      this.count(e.spelled);
      this.add(e.operation, e.kind, at, e.spelled, e.via);
    }
    for (const text of analysis.legacy) this.legacyWords(text, at, depth);
  }

  /** The old reading of a piece of a command: every word a path, read and written, in every working folder. */
  legacyWords(text: string, at: string, depth: number): void {
    this.commandWords(text, at, depth, false);
  }

  /** `name` is the argument or member name the value sits under (array elements keep it). */
  visit(value: unknown, at: string, role: Role, depth: number, name?: string): void {
    if (role === "text" || role === "remote") return;
    if (role === "gitWord") return gitWord(value, at);
    if (depth > BUDGET.maxDepth)
      throw new OverBudget(`arguments nested deeper than ${BUDGET.maxDepth} levels`);
    if (typeof value === "string") return this.string(value, at, role, depth, name);
    if (Array.isArray(value)) {
      value.forEach((v, i) =>
        typeof v === "string"
          ? this.string(v, `${at}[${i}]`, role, depth + 1, name, true)
          : this.visit(v, `${at}[${i}]`, role, depth + 1, name),
      );
      return;
    }
    if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        this.string(k, `${at}{key ${JSON.stringify(k)}}`, role, depth);
        this.visit(v, `${at}.${k}`, role, depth + 1, k);
      }
    }
  }

  /**
   * Called by visit, which has already left out text and remote positions. `element` says the
   * string is one element of a list (an argv word, for a command).
   */
  string(s: string, at: string, role: Role, depth: number, name?: string, element = false): void {
    if (depth > BUDGET.maxDepth)
      throw new OverBudget(`arguments nested deeper than ${BUDGET.maxDepth} levels`);
    this.count(s);
    if (role === "command" || (role === "generic" && this.execClass)) {
      this.commandWords(s, at, depth, element);
      return;
    }
    if (role === "url") {
      if (isUrl(s)) this.add("read", "url", at, s.trim());
      else this.add("read", "path", at, s); // data: and file: URIs, or a local file given as "url"
      return;
    }
    if (role === "pathOrUrl") {
      this.add("read", isUrl(s) ? "url" : "path", at, isUrl(s) ? s.trim() : s);
      return;
    }
    if (role === "read" || role === "write" || role === "exec") {
      this.add(role, "path", at, s);
      return;
    }
    if (role === "readWrite") {
      this.add("write", "path", at, s);
      this.add("read", "path", at, s);
      return;
    }
    // generic position
    // A URL is fetched; but to a server that joins it to a folder (Node's path.resolve folds
    // `https://x/../../.ssh/k` to `.ssh/k`) it is a relative path, so it is judged as one too.
    if (isUrl(s)) this.add("read", "url", at, s.trim());
    const nested = embeddedJson(s, at);
    if (nested !== undefined) {
      this.visit(nested, `${at}<json>`, role, depth + 1, name); // role is "generic" here
      return;
    }
    if (s.trim().length === 0) return;
    if (isProse(s) && !(name !== undefined && isPathName(name)) && !startsLikePath(s)) return;
    for (const op of this.genericOps) this.add(op, "path", at, s);
    // Where the result goes is written, whatever the tool's name says (`download_file`'s
    // `destination`). Judged in addition to the tool's own reading: a read tool's `target` may
    // also be the file it reads, and deny_read must still see it.
    if (!this.genericOps.includes("write") && name !== undefined && isOutputName(name))
      this.add("write", "path", at, s);
  }

  /** A command word is judged as read and written: a shell can do either with what it names. */
  private commandPath(at: string, rawWord: string): void {
    // A word of blanks only (`-s': '`, a `"\n"` literal) names a file of that name in the working
    // folder, not the empty path the canonicaliser refuses.
    const word = rawWord.trim() === "" ? `./${rawWord}` : rawWord;
    this.add("write", "path", at, word);
    this.add("read", "path", at, word);
    // The shell runs in the call's working directory, not the server's: `>> .bashrc` with
    // `cwd: "~"` is ~/.bashrc. Judged in addition to the word on its own (stricter wins), and in
    // every directory the call names, since which one the server uses is its own business.
    if (!isRelativeWord(word)) return;
    for (const { dir, at: where } of this.workdirs) {
      this.add("write", "path", `${at} (in ${where})`, inWorkdir(dir, word));
      this.add("read", "path", `${at} (in ${where})`, inWorkdir(dir, word));
    }
  }

  commandWords(s: string, at: string, depth: number, element: boolean): void {
    const nested = embeddedJson(s, at);
    if (nested !== undefined) this.visit(nested, `${at}<json>`, "command", depth + 1);
    // Every word read counts against the budget, which stops reading a huge command early.
    const readings = commandReadings(s, (word) => this.count(word));
    if (readings.unjudgeable !== undefined) throw new Unjudgeable(`${readings.unjudgeable} (at ${at})`);
    // An argv element is one word whatever it holds (`Code - Insiders/User/settings.json`).
    if (element && s.trim() !== "" && !isProse(s)) this.commandPath(at, s);
    for (const word of readings.words) {
      // A URL is fetched, and to the shell it is also a relative path (`https:` is a folder name).
      if (isUrl(word)) this.add("read", "url", at, word);
      this.commandPath(at, word);
    }
    // `curl evil.example/x` fetches over http though no scheme is written.
    for (const host of readings.fetched) this.add("read", "url", at, host);
  }
}

/** The command string an exec effect shows: the command argument if there is one, else the tool. */
function commandOf(tool: string, args: Record<string, unknown>, declared: Record<string, ArgRole>): string {
  const names = [...Object.keys(declared).filter((k) => declared[k] === "command"), ...COMMAND_ARGS];
  for (const name of names) {
    const command = commandText(args[name]);
    if (command !== undefined) return command;
  }
  return tool;
}

/** A command given as one string, or as a list of words (argv); anything else is not one. */
export function commandText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((x) => typeof x === "string")) return value.join(" ");
  return undefined;
}

/** The working directories an exec call names for its command, in WORKDIR_ARGS order. */
export function workdirsOf(args: Record<string, unknown>): Array<{ at: string; dir: string }> {
  return WORKDIR_ARGS.filter((n) => typeof args[n] === "string" && args[n] !== "").map((n) => ({
    at: `arguments.${n}`,
    dir: args[n] as string,
  }));
}

/** Shells whose commands the bash grammar reads (their `-c` scripts and their input). */
const POSIX_SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash"]);
/** Words of a tool's name that say it runs shell commands, and words that say it runs code in another language. */
const SHELL_NAME_WORDS = new Set([
  "bash",
  "sh",
  "zsh",
  "shell",
  "command",
  "commands",
  "terminal",
  "console",
]);
const OTHER_LANGUAGE_WORDS = new Set([
  "python",
  "py",
  "code",
  "js",
  "javascript",
  "node",
  "ruby",
  "sql",
  "blender",
  "script",
  "powershell",
  "pwsh",
  "ps",
  "cmd",
  "applescript",
  "osascript",
  "lua",
  "r",
  "julia",
  "eval",
  "repl",
  "notebook",
  "jupyter",
]);

/** A command the bash grammar can read: where it is, what it is, and the shell it is typed into. */
interface ShellCommand {
  /** The arguments it was read from (so that the generic walk leaves them to it). */
  names: string[];
  at: string;
  text?: string;
  argv?: string[];
  stdin?: string;
  /** A shell that persists between calls: its id and its state so far. */
  persistent?: { id: string; state: ShellState };
}

/**
 * Whether `tool` runs its command with a POSIX shell, and where the command is. Desktop
 * Commander's `shell` argument, a Windows machine (PowerShell or cmd by default) and tools whose
 * name says another language keep the old reading: there is no grammar for those here.
 */
function shellCommand(
  tool: string,
  args: Record<string, unknown>,
  known: KnownTool | undefined,
  setup: CommandSetup,
): ShellCommand | undefined {
  const shellArg = typeof args["shell"] === "string" ? programName(args["shell"]) : undefined;
  if (shellArg !== undefined && !POSIX_SHELLS.has(shellArg)) return undefined;
  if (shellArg === undefined && setup.platform === "win32") return undefined;
  const lower = tool.toLowerCase();
  if (lower === "interact_with_process") {
    const id = `pid:${String(args["pid"])}`;
    const state = setup.shells.get(id);
    if (state === undefined || typeof args["input"] !== "string") return undefined;
    return { names: ["input"], at: "arguments.input", text: args["input"], persistent: { id, state } };
  }
  const words = nameWords(tool);
  const posix =
    known?.shell === true ||
    (words.some((w) => SHELL_NAME_WORDS.has(w)) && !words.some((w) => OTHER_LANGUAGE_WORDS.has(w)));
  if (!posix) return undefined;
  const declared = Object.keys(known?.args ?? {}).filter(
    (k) => known?.args[k] === "command" && k !== "stdin",
  );
  const name = [
    ...declared,
    ...COMMAND_ARGS.filter((n) => n !== "stdin" && n !== "args" && n !== "argv"),
  ].find(
    (n) =>
      typeof args[n] === "string" ||
      (Array.isArray(args[n]) && (args[n] as unknown[]).every((x) => typeof x === "string")),
  );
  const extra = ["args", "argv"].find(
    (n) => Array.isArray(args[n]) && (args[n] as unknown[]).every((x) => typeof x === "string"),
  );
  if (name === undefined && extra === undefined) return undefined;
  const out: ShellCommand = { names: [], at: `arguments.${name ?? extra ?? ""}` };
  const value = name === undefined ? undefined : args[name];
  if (typeof value === "string") out.text = value;
  else if (Array.isArray(value)) out.argv = value as string[];
  if (name !== undefined) out.names.push(name);
  if (extra !== undefined) {
    // `{command: "mv", args: [...]}`: the program and its words given apart.
    out.argv = [...(typeof value === "string" ? [value] : (out.argv ?? [])), ...(args[extra] as string[])];
    out.names.push(extra);
  }
  if (typeof args["stdin"] === "string") {
    out.stdin = args["stdin"];
    out.names.push("stdin");
  }
  if (lower === "write_to_terminal")
    out.persistent = {
      id: "terminal",
      state: setup.shells.get("terminal") ?? { cwds: [undefined], vars: new Map(), defined: new Set() },
    };
  return out;
}

const copyState = (s: ShellState): ShellState => ({
  cwds: [...s.cwds],
  vars: new Map(s.vars),
  defined: new Set(s.defined),
});

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
      const declared = known?.args[name];
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
