import { parseStrictJson } from "../json/strict-json.js";
import type { Analysis } from "../commands/api.js";
import type { CommandVia, Effect, Operation } from "../types.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";
import { isOutputName, isPathName } from "./arg-names.js";
import { BUDGET, OverBudget } from "./budget.js";
import { commandReadings } from "./command-tokens.js";
import { isProse, isUrl, startsLikePath } from "./string-shapes.js";
import type { ArgRole } from "./tool-table.js";

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

/** Something in the arguments cannot be read one way only. */
export class Unjudgeable extends Error {}

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

export class Walker {
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
