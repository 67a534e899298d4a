import { parseStrictJson } from "../json/strict-json.js";
import type { Effect, Operation } from "../types.js";
import { isOutputName, isPathName } from "./arg-names.js";
import { commandReadings } from "./command-tokens.js";
import { type ArgRole, knownTool, verbOperations } from "./tool-table.js";

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

export type Extraction = { ok: true; effects: Effect[] } | { ok: false; error: string };

/** Argument names that carry the command of an exec-class tool, in order of preference. */
export const COMMAND_ARGS = ["command", "cmd", "code", "script", "input", "stdin", "args", "argv"];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Arguments that set where an exec call's command runs. */
const WORKDIR_ARGS = ["cwd", "workdir", "working_directory", "workingDirectory", "directory", "dir"];
/** Words that do not depend on the working directory: /x, \\x, ~, $VAR, %VAR%, C:… */
const ABSOLUTE_ISH = /^(?:[\\/~$%]|[A-Za-z]:)/;

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

  private count(s: string): void {
    this.strings += 1;
    this.chars += s.length;
    if (this.strings > BUDGET.maxStrings)
      throw new OverBudget(`more than ${BUDGET.maxStrings} strings in the arguments`);
    if (this.chars > BUDGET.maxChars)
      throw new OverBudget(`more than ${BUDGET.maxChars} characters of strings in the arguments`);
  }

  add(operation: Operation, kind: Effect["kind"], at: string, spelled: string): void {
    // One judgement per distinct value: 10,000 copies of a harmless string cost one canonicalisation.
    const key = `${operation}\u0000${kind}\u0000${spelled}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.effects.push({ operation, kind, at, spelled });
  }

  /** `name` is the argument or member name the value sits under (array elements keep it). */
  visit(value: unknown, at: string, role: Role, depth: number, name?: string): void {
    if (role === "text" || role === "remote") return;
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
  private commandPath(at: string, word: string): void {
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

  private commandWords(s: string, at: string, depth: number, element: boolean): void {
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

/** `word` spelled inside the folder `dir`, with the folder's own separator. */
export function inWorkdir(dir: string, word: string): string {
  const sep = dir.includes("\\") && !dir.includes("/") ? "\\" : "/";
  return `${dir.replace(/[\\/]+$/, "")}${sep}${word}`;
}

/** Whether a command word depends on the working directory (else it is judged only as written). */
export const isRelativeWord = (word: string): boolean => !ABSOLUTE_ISH.test(word);

/** The working directories an exec call names for its command, in WORKDIR_ARGS order. */
export function workdirsOf(args: Record<string, unknown>): Array<{ at: string; dir: string }> {
  return WORKDIR_ARGS.filter((n) => typeof args[n] === "string" && args[n] !== "").map((n) => ({
    at: `arguments.${n}`,
    dir: args[n] as string,
  }));
}

/**
 * Effects of calling `tool` with `args`. `execClass` is true when the policy's exec globs name
 * the tool; the built-in table can also mark a tool as running code (start_process, …).
 */
export function extractEffects(tool: string, args: Record<string, unknown>, execClass: boolean): Extraction {
  const known = knownTool(tool, args);
  const isExec = execClass || known?.exec === true;
  const workdirs = isExec ? workdirsOf(args) : [];
  const walker = new Walker(known ? [known.fallback] : verbOperations(tool), isExec, workdirs);
  try {
    if (isExec) walker.add("exec", "command", "arguments", commandOf(tool, args, known?.args ?? {}));
    for (const [name, value] of Object.entries(args)) {
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
  return { ok: true, effects: walker.effects };
}
