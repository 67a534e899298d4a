// The catalogue of programs: what each known program does with its options and operands. It is
// data (policy/commands.yaml, and `commands.programs` in a policy file, which adds to it or
// replaces entries), read and checked here with the same `file:line: key: expected X, got Y`
// problems as the policy. docs/decisions/0079-program-catalogue.md gives the vocabulary;
// src/core/commands/ applies it to parsed commands.
import type { PolicyProblem } from "./compile-lists.js";
import type { KeyPath } from "./yaml-tree.js";

/** Languages of code a program runs from a string or a file. */
const LANGUAGES = ["shell", "sed", "awk", "text", "code"] as const;
export type Language = (typeof LANGUAGES)[number];

/** What an operand, or the value of an option, is to the program. */
const ROLES = [
  "text", // not a path: a message, a pattern, a number
  "read", // a file it reads
  "read-tree", // a folder it reads as a whole
  "write", // a file it writes
  "readwrite", // a file it reads and changes
  "delete", // a file or folder it removes, as a whole
  "place", // where it puts files or a folder as a whole (cp, mv and unzip destinations)
  "source", // a file or folder it reads as a whole and hands on (cp's source)
  "move", // a file or folder it moves away (read as a whole and removed)
  "mode", // a file whose mode or owner it changes (as a whole with a recursive option)
  "link", // where it makes a link (written)
  "exec", // a file of code it runs (a script): the project's code
  "url", // a URL it fetches
  "send-url", // a URL it sends data to
  "send-data", // a file whose content it sends out
  "host", // a host it connects to and sends data to (`[user@]host`, `host:port`): an egress effect
  "remote", // a repository it sends to: a URL or `host:path` is a destination, a bare name (origin) a configured remote
  "command", // the rest of the words are a command it runs (wrappers)
  "cwd", // the folder it works in (git -C, make -C, env -C)
  "candidate", // a word of the project's own code, judged as a path read and written, as before
  "setting", // `key=value` of a program's own settings (git -c): a key that runs code is code
  ...LANGUAGES.map((l) => `script:${l}` as const), // code it runs, given as a string
  ...LANGUAGES.map((l) => `script-file:${l}` as const), // code it runs, read from a file
] as const;
export type Role = (typeof ROLES)[number];

/**
 * Roles only an option can have: a flag, or a flag that changes how operands are read; `info`
 * (`--version`, `--help`) makes the program only print about itself.
 */
const OPTION_ONLY = ["flag", "recursive", "in-place", "index-only", "worktree", "info"] as const;
export type OptionRole = Role | (typeof OPTION_ONLY)[number];

/** What running a program amounts to, besides what its operands say. */
const CLASSES = [
  "none", // nothing beyond its operands (echo, true, mkdir)
  "reads", // only reads (ls, grep, git status)
  "project", // runs the project's code or installs packages: builds, tests, installs
  "fetch", // fetches from the network (its url operands)
  "sends", // sends data out (ssh, git push, nc)
  "persistence", // schedules or installs code to run later (crontab, systemctl enable)
  "code-settings", // changes a setting that runs code later (npm config set)
  "unknown", // effects the catalogue does not model
] as const;
export type ProgramClass = (typeof CLASSES)[number];

/** Programs whose grammar is not options and operands; src/core/commands/handlers.ts reads them. */
export const HANDLERS = ["shell", "sed", "awk", "find", "xargs", "git-config", "dd", "tar", "curl", "wget", "remote-copy", "ssh", "netcat", "socat", "env", "dns", "opener", "server"] as const;
export type Handler = (typeof HANDLERS)[number];

export interface ProgramEntry {
  class: ProgramClass;
  /** Option name (`-o`, `--output`) → what its value is, or `flag`. */
  options: ReadonlyMap<string, OptionRole>;
  /** How options the entry does not list are read: as flags, as unknown (the command is unknown), or as candidates. */
  otherOptions: "flags" | "unknown" | "candidate";
  /** Roles of the operands in order; the last one repeats. */
  operands: readonly Role[];
  /** The role of the last operand when there are two or more (cp's destination), unless an option gave a place. */
  lastOperand?: Role;
  /** It puts files into its working folder when no option names a place (unzip, tar x). */
  placesInCwd?: boolean;
  /** It prints paths below its read operands (or its working folder): what a downstream xargs gets. */
  lists?: boolean;
  /** Subcommands chosen by the first operand (after the entry's own options). */
  subcommands?: ReadonlyMap<string, ProgramEntry>;
  /** What an unlisted subcommand is. */
  otherSubcommands: ProgramClass;
  /** It reads code from its standard input when no script or file is given. */
  stdin?: Language;
  handler?: Handler;
}

export interface Catalogue {
  /** The entry for a program name (programName: lower case, no folder, no .exe). */
  get(program: string): ProgramEntry | undefined;
  readonly size: number;
}

const ENTRY_KEYS = ["summary", "class", "options", "other_options", "operands", "last_operand", "places_in_cwd", "lists", "subcommands", "other_subcommands", "stdin", "handler"];
const OPTION_NAME = /^(?:-[A-Za-z0-9?#]|--[A-Za-z0-9][A-Za-z0-9-]*|-[A-Za-z][A-Za-z0-9-]+|\+[A-Za-z])$/;
const PROGRAM_NAME = /^[a-z0-9._+[-]+$/;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const got = (v: unknown): string =>
  v === undefined ? "nothing" : typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? "a list" : v === null ? "null" : typeof v;
const oneOf = (words: readonly string[]) => `one of ${words.join(", ")}`;

function compileEntry(raw: unknown, at: KeyPath, problems: PolicyProblem[]): ProgramEntry | undefined {
  if (!isRecord(raw)) {
    problems.push({ path: at, expected: "a mapping with class, options, operands, …", got: got(raw) });
    return undefined;
  }
  const before = problems.length;
  for (const key of Object.keys(raw))
    if (!ENTRY_KEYS.includes(key)) problems.push({ path: [...at, key], expected: oneOf(ENTRY_KEYS), got: "an unknown key" });
  const summary = raw["summary"];
  if (summary !== undefined && typeof summary !== "string")
    problems.push({ path: [...at, "summary"], expected: "a sentence (a string)", got: got(summary) });
  const cls = raw["class"] ?? "none";
  if (typeof cls !== "string" || !(CLASSES as readonly string[]).includes(cls))
    problems.push({ path: [...at, "class"], expected: oneOf(CLASSES), got: got(cls) });
  const options = new Map<string, OptionRole>();
  const rawOptions = raw["options"] ?? {};
  if (!isRecord(rawOptions))
    problems.push({ path: [...at, "options"], expected: "a mapping of option names to roles", got: got(rawOptions) });
  else
    for (const [names, role] of Object.entries(rawOptions)) {
      const where = [...at, "options", names];
      const roleOk = typeof role === "string" && ([...ROLES, ...OPTION_ONLY] as readonly string[]).includes(role);
      if (!roleOk) problems.push({ path: where, expected: `a role (${oneOf([...OPTION_ONLY, ...ROLES])})`, got: got(role) });
      for (const name of names.split(/\s+/).filter((n) => n !== "")) {
        if (!OPTION_NAME.test(name)) problems.push({ path: where, expected: "option names such as -o or --output, separated by spaces", got: JSON.stringify(name) });
        else if (roleOk) options.set(name, role as OptionRole);
      }
    }
  const other = raw["other_options"] ?? "unknown";
  if (other !== "flags" && other !== "unknown" && other !== "candidate")
    problems.push({ path: [...at, "other_options"], expected: oneOf(["flags", "unknown", "candidate"]), got: got(other) });
  const rawOperands = raw["operands"] ?? [];
  const operands: Role[] = [];
  if (!Array.isArray(rawOperands)) problems.push({ path: [...at, "operands"], expected: "a list of roles", got: got(rawOperands) });
  else
    rawOperands.forEach((r: unknown, i) => {
      if (typeof r === "string" && (ROLES as readonly string[]).includes(r)) operands.push(r as Role);
      else problems.push({ path: [...at, "operands", i], expected: `a role (${oneOf(ROLES)})`, got: got(r) });
    });
  const last = raw["last_operand"];
  if (last !== undefined && !(typeof last === "string" && (ROLES as readonly string[]).includes(last)))
    problems.push({ path: [...at, "last_operand"], expected: `a role (${oneOf(ROLES)})`, got: got(last) });
  const lists = raw["lists"];
  if (lists !== undefined && typeof lists !== "boolean")
    problems.push({ path: [...at, "lists"], expected: "true or false", got: got(lists) });
  const inCwd = raw["places_in_cwd"];
  if (inCwd !== undefined && typeof inCwd !== "boolean")
    problems.push({ path: [...at, "places_in_cwd"], expected: "true or false", got: got(inCwd) });
  let subcommands: Map<string, ProgramEntry> | undefined;
  const rawSubs = raw["subcommands"];
  if (rawSubs !== undefined) {
    if (!isRecord(rawSubs)) problems.push({ path: [...at, "subcommands"], expected: "a mapping of subcommand names to entries", got: got(rawSubs) });
    else {
      subcommands = new Map();
      for (const [names, sub] of Object.entries(rawSubs)) {
        const entry = compileEntry(sub, [...at, "subcommands", names], problems);
        for (const name of names.split(/\s+/).filter((n) => n !== "")) if (entry !== undefined) subcommands.set(name, entry);
      }
    }
  }
  const otherSubs = raw["other_subcommands"] ?? "unknown";
  if (typeof otherSubs !== "string" || !(CLASSES as readonly string[]).includes(otherSubs))
    problems.push({ path: [...at, "other_subcommands"], expected: oneOf(CLASSES), got: got(otherSubs) });
  const stdin = raw["stdin"];
  if (stdin !== undefined && !(typeof stdin === "string" && (LANGUAGES as readonly string[]).includes(stdin)))
    problems.push({ path: [...at, "stdin"], expected: oneOf(LANGUAGES), got: got(stdin) });
  const handler = raw["handler"];
  if (handler !== undefined && !(typeof handler === "string" && (HANDLERS as readonly string[]).includes(handler)))
    problems.push({ path: [...at, "handler"], expected: oneOf(HANDLERS), got: got(handler) });
  if (problems.length > before) return undefined;
  const entry: ProgramEntry = {
    class: cls as ProgramClass,
    options,
    otherOptions: other as ProgramEntry["otherOptions"],
    operands,
    otherSubcommands: otherSubs as ProgramClass,
  };
  if (subcommands !== undefined) entry.subcommands = subcommands;
  if (last !== undefined) entry.lastOperand = last as Role;
  if (inCwd === true) entry.placesInCwd = true;
  if (lists === true) entry.lists = true;
  if (stdin !== undefined) entry.stdin = stdin as Language;
  if (handler !== undefined) entry.handler = handler as Handler;
  return entry;
}

/**
 * The entries of a `programs:` mapping (keys are one or more program names separated by
 * spaces). Problems are returned with their key paths, for the caller to give lines.
 */
export function compilePrograms(raw: unknown, at: KeyPath): { entries: Map<string, ProgramEntry>; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const entries = new Map<string, ProgramEntry>();
  if (!isRecord(raw)) {
    problems.push({ path: at, expected: "a mapping of program names to entries", got: got(raw) });
    return { entries, problems };
  }
  for (const [names, value] of Object.entries(raw)) {
    const list = names.split(/\s+/).filter((n) => n !== "");
    const bad = list.find((n) => !PROGRAM_NAME.test(n));
    if (bad !== undefined || list.length === 0) {
      problems.push({ path: [...at, names], expected: "program names in lower case (as run, without a folder or .exe), separated by spaces", got: JSON.stringify(bad ?? names) });
      continue;
    }
    const entry = compileEntry(value, [...at, names], problems);
    if (entry !== undefined) for (const n of list) entries.set(n, entry);
  }
  return { entries, problems };
}

/** A catalogue from the shipped entries with a policy's own on top (a policy entry replaces a shipped one). */
export function catalogueOf(...layers: ReadonlyArray<ReadonlyMap<string, ProgramEntry>>): Catalogue {
  const all = new Map<string, ProgramEntry>();
  for (const layer of layers) for (const [k, v] of layer) all.set(k, v);
  return { get: (program) => all.get(program), size: all.size };
}

/** `variables:` name (or `PREFIX_*`) → how its value runs code. */
export function compileVariables(raw: unknown, at: KeyPath): { variables: Map<string, "command" | "file" | "options">; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const variables = new Map<string, "command" | "file" | "options">();
  if (!isRecord(raw)) {
    problems.push({ path: at, expected: "a mapping of variable names to command, file or options", got: got(raw) });
    return { variables, problems };
  }
  for (const [name, kind] of Object.entries(raw)) {
    if (!/^[A-Za-z_]\w*\*?$/.test(name)) problems.push({ path: [...at, name], expected: "a variable name (or a prefix ending in *)", got: JSON.stringify(name) });
    else if (kind !== "command" && kind !== "file" && kind !== "options")
      problems.push({ path: [...at, name], expected: "one of command, file, options", got: got(kind) });
    else variables.set(name, kind);
  }
  return { variables, problems };
}
