import type { OptionRole, ProgramEntry, Role } from "../policy/catalogue.js";
import type { Arg, Run } from "./api.js";
import { HANDLERS } from "./handlers.js";

/**
 * The catalogue's grammar applied to one program's arguments: options (short clusters, glued
 * values, `--long=value`, unambiguous prefixes of long options as getopt_long accepts them),
 * `--`, operands by position (the last role repeats), subcommands, and what the roles say.
 */

/** Roles that end option parsing: what follows belongs to another program or script. */
const STOPS: ReadonlySet<Role> = new Set([
  "command",
  "exec",
  "script-file:shell",
  "script-file:code",
  "script-file:sed",
  "script-file:awk",
]);

const isScript = (r: OptionRole): boolean => r.startsWith("script:") || r.startsWith("script-file:");

interface Found {
  role: OptionRole;
  name: string;
}

/** The entry's option for `name`, or for a long option, the one it abbreviates. */
function lookup(entry: ProgramEntry, name: string): Found | undefined {
  const role = entry.options.get(name);
  if (role !== undefined) return { role, name };
  if (!name.startsWith("--") || name.length < 4) return undefined;
  // getopt_long takes any unambiguous prefix: `--out=x` is `--output=x`. Of several matches the
  // first listed one is taken; a real ambiguity makes the program fail, which does nothing.
  for (const [known, r] of entry.options) if (known.startsWith(name)) return { role: r, name: known };
  return undefined;
}

const exactOf = (a: Arg): string | undefined => a.value.exact;

/** Option roles that take no value: they change how the operands are read. */
const FLAG_ROLES: ReadonlySet<OptionRole> = new Set([
  "flag",
  "recursive",
  "in-place",
  "index-only",
  "worktree",
]);

export interface Applied {
  /** Set when the program's words could not be read with this entry. */
  unknown?: string;
}

/** Apply `entry` to `args` (the words after the program name). */
export function applyEntry(run: Run, entry: ProgramEntry, args: readonly Arg[], name: string): void {
  if (entry.handler !== undefined) {
    HANDLERS[entry.handler](run, args, entry);
    return;
  }
  let recursive = false;
  let inPlace = false;
  // `git rm --cached`, `git restore --staged`: the operands change in the index only; the files on
  // disk stay as they are. `git restore --staged --worktree` restores the files too.
  let indexOnly = false;
  let worktree = false;
  let info = false;
  let scriptGiven = false;
  const values: Array<{ role: OptionRole; arg: Arg }> = [];
  const operands: Arg[] = [];
  let ended = false;
  let rest: { role: Role; from: number } | undefined;
  let sub: { entry: ProgramEntry | undefined; name: string; from: number } | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const text = a.value.exact ?? a.value.text;
    const isOption =
      !ended &&
      text.length > 1 &&
      (text.startsWith("-") || (text.startsWith("+") && entry.options.has(text.slice(0, 2))));
    if (!ended && text === "--") {
      ended = true;
      continue;
    }
    if (isOption) {
      if (exactOf(a) === undefined)
        return run.unknown(`${name}: an option known only at run time (${a.value.text})`);
      const taken = readOption(run, entry, name, text, args[i + 1]);
      if (taken === "unknown") return;
      let stop: Arg | undefined;
      for (const t of taken.found) {
        if (t.role === "recursive") recursive = true;
        else if (t.role === "in-place") inPlace = true;
        else if (t.role === "index-only") indexOnly = true;
        else if (t.role === "worktree") worktree = true;
        else if (t.role === "info") info = true;
        else if (t.role === "command" || t.role === "script:code") stop = t.value;
        else if (t.role !== "flag" && t.value !== undefined) {
          values.push({ role: t.role, arg: t.value });
          if (isScript(t.role)) scriptGiven = true;
        }
      }
      if (taken.usedNext) i++;
      if (stop !== undefined) {
        // `python -m mod ARGS`, `python -c CODE ARGS`: the rest belongs to the module or the code.
        const role = taken.found.find((t) => t.value === stop)?.role as Role;
        for (const v of values) if (v.role === "cwd") run.chdir(v.arg);
        for (const v of values)
          if (v.role !== "cwd") judge(run, v.role as Role, v.arg, recursive, inPlace, indexOnly && !worktree);
        if (role === "command") run.wrap([stop, ...args.slice(i + 1)]);
        else {
          judge(run, role, stop, false, false);
          for (const a of args.slice(i + 1)) judge(run, "candidate", a, false, false);
        }
        run.cls(entry.class, describe(entry.class, name));
        return;
      }
      continue;
    }
    // The first operand picks a subcommand.
    if (entry.subcommands !== undefined && operands.length === 0) {
      const word = exactOf(a);
      if (word === undefined)
        return run.unknown(`${name}: a subcommand known only at run time (${a.value.text})`);
      sub = { entry: entry.subcommands.get(word), name: `${name} ${word}`, from: i + 1 };
      break;
    }
    operands.push(a);
    const role = roleAt(entry.operands, operands.length - 1, scriptGiven);
    if (role !== undefined && STOPS.has(role)) {
      rest = { role, from: i + 1 };
      break;
    }
  }
  if (info && operands.length === 0 && sub === undefined)
    return run.cls("reads", `${name} prints about itself`);
  // Options first: `-C dir` changes the folder the operands are read in.
  for (const v of values) if (v.role === "cwd") run.chdir(v.arg);
  for (const v of values)
    if (v.role !== "cwd") judge(run, v.role as Role, v.arg, recursive, inPlace, indexOnly && !worktree);
  if (sub !== undefined) {
    if (sub.entry === undefined) {
      run.cls(entry.otherSubcommands, `${sub.name}: a subcommand the catalogue does not know`);
      if (entry.otherSubcommands === "unknown" || entry.otherSubcommands === "project")
        for (const a of args.slice(sub.from)) judge(run, "candidate", a, false, false);
      return;
    }
    applyEntry(run, sub.entry, args.slice(sub.from), sub.name);
    return;
  }
  // A script given by an option (`grep -e P`, `sed -e S`) takes the place of the script operand.
  const roles =
    scriptGiven && entry.operands[0] !== undefined && isScript(entry.operands[0])
      ? entry.operands.slice(1)
      : entry.operands;
  const placed = values.some((v) => v.role === "place");
  const lastRole =
    entry.lastOperand !== undefined && !placed && operands.length >= 2 ? entry.lastOperand : undefined;
  operands.forEach((a, k) => {
    const role =
      lastRole !== undefined && k === operands.length - 1
        ? lastRole
        : (roleAt(roles, k, false) ?? "candidate");
    if (STOPS.has(role) && rest !== undefined && k === operands.length - 1)
      return judgeStop(run, role, a, args.slice(rest.from));
    judge(run, role, a, recursive, inPlace, indexOnly && !worktree);
  });
  const hasCode = operands.some((_, k) => {
    const r = roleAt(roles, k, false);
    return r !== undefined && (isScript(r) || STOPS.has(r));
  });
  if (entry.stdin !== undefined && !scriptGiven && !hasCode) stdinCode(run, entry.stdin, name);
  if (entry.lists === true) {
    const read = operands.filter((_, k) => (roleAt(roles, k, false) ?? "").startsWith("read"));
    run.lists(read.length === 0 ? ["."] : read.map((a) => a.value.exact ?? a.value.text));
  }
  if (entry.placesInCwd === true && !placed)
    run.role("place", { value: { exact: ".", text: ".", substitutions: [] } }, "puts files into");
  run.cls(entry.class, describe(entry.class, name));
}

/** The operand role at index `k`: the last role repeats; none when the entry lists no operands. */
function roleAt(roles: readonly Role[], k: number, skipScript: boolean): Role | undefined {
  const list = skipScript && roles[0] !== undefined && isScript(roles[0]) ? roles.slice(1) : roles;
  if (list.length === 0) return undefined;
  return list[Math.min(k, list.length - 1)];
}

/** A program that reads code from its standard input, given none as an operand. */
export function stdinCode(run: Run, language: string, name: string): void {
  const stdin = run.stdin;
  switch (stdin.kind) {
    case "pipe":
      if (stdin.network)
        return run.cls(
          "network-code",
          `${name} runs code piped from the network${stdin.from === undefined ? "" : ` (${stdin.from})`}`,
        );
      return run.cls("unknown", `${name} runs code piped from another command`);
    case "file":
      return run.role("exec", stdin.arg);
    case "heredoc":
    case "string": {
      const text = stdin.kind === "heredoc" ? stdin.text : (stdin.arg.value.exact ?? stdin.arg.value.text);
      if (language === "shell") {
        const literal = { exact: text, text, substitutions: [] };
        return run.shell(stdin.kind === "heredoc" ? { value: literal } : stdin.arg);
      }
      run.legacy(text);
      return run.cls("unknown", `${name} runs code given in the command: its effects are not known`);
    }
    case "none":
      // Started to be typed into (Desktop Commander's start_process): what is typed is judged then.
      if (run.interactive)
        return run.cls("none", `${name} starts to be typed into; each input is judged as it is sent`);
      return run.cls("unknown", `${name} reads code from its standard input`);
  }
}

function judgeStop(run: Run, role: Role, a: Arg, after: readonly Arg[]): void {
  if (role === "command") {
    run.wrap([a, ...after]);
    return;
  }
  // A script file and its own arguments: the project's code, whose words may name paths.
  judge(run, role, a, false, false);
  for (const w of after) judge(run, "candidate", w, false, false);
}

function judge(run: Run, role: Role, a: Arg, recursive: boolean, inPlace: boolean, indexOnly = false): void {
  if ((role === "delete" || role === "write") && indexOnly)
    return run.role(recursive ? "read-tree" : "read", a);
  if (role === "read" && recursive) return run.role("read-tree", a);
  if (role === "read" && inPlace) return run.role("readwrite", a);
  if (role === "mode" && recursive) return run.role("mode", a, "changes the mode of everything in");
  if (role === "delete" && recursive) return run.role("delete", a, "removes everything in");
  run.role(role, a);
}

const DOES: Record<string, string> = {
  none: "does nothing beyond its operands",
  reads: "only reads",
  project: "runs the project's code",
  fetch: "fetches from the network",
  sends: "sends data out",
  persistence: "installs code that runs later",
  "code-settings": "changes a setting that runs code later",
  unknown: "has effects the catalogue does not know",
};

export const describe = (cls: string, name: string): string => `${name} ${DOES[cls] ?? cls}`;

type Taken = { found: Array<{ role: OptionRole; value?: Arg }>; usedNext: boolean } | "unknown";

/** One option word: `--name[=value]`, or a cluster of short options with a value glued to its end. */
function readOption(run: Run, entry: ProgramEntry, name: string, text: string, next: Arg | undefined): Taken {
  const literal = (s: string): Arg => ({ value: { exact: s, text: s, substitutions: [] } });
  if (text.startsWith("--")) {
    const eq = text.indexOf("=");
    const opt = eq < 0 ? text : text.slice(0, eq);
    const found = lookup(entry, opt);
    if (found === undefined)
      return other(run, entry, name, text, eq < 0 ? undefined : literal(text.slice(eq + 1)));
    if (FLAG_ROLES.has(found.role)) return { found: [{ role: found.role }], usedNext: false };
    if (eq >= 0)
      return { found: [{ role: found.role, value: literal(text.slice(eq + 1)) }], usedNext: false };
    if (next === undefined) return { found: [], usedNext: false };
    return { found: [{ role: found.role, value: next }], usedNext: true };
  }
  // A whole word listed as an option (find-style `-name`, `-rf` written out, PowerShell-style).
  const whole = entry.options.get(text);
  if (whole !== undefined && text.length > 2) {
    if (FLAG_ROLES.has(whole)) return { found: [{ role: whole }], usedNext: false };
    return next === undefined
      ? { found: [], usedNext: false }
      : { found: [{ role: whole, value: next }], usedNext: true };
  }
  const found: Array<{ role: OptionRole; value?: Arg }> = [];
  const prefix = text[0] as string;
  for (let k = 1; k < text.length; k++) {
    const opt = `${prefix}${text[k] as string}`;
    const role = entry.options.get(opt);
    if (role === undefined) {
      const r = other(run, entry, name, opt, undefined);
      if (r === "unknown") return r;
      // An unlisted letter read as a candidate takes the rest of the cluster as its value.
      if (r.found.length > 0 && k + 1 < text.length) {
        found.push({ role: "candidate", value: literal(text.slice(k + 1)) });
        return { found, usedNext: false };
      }
      continue;
    }
    if (FLAG_ROLES.has(role) || role === "info") {
      found.push({ role });
      continue;
    }
    if (k + 1 < text.length) found.push({ role, value: literal(text.slice(k + 1)) });
    else if (next !== undefined) return { found: [...found, { role, value: next }], usedNext: true };
    return { found, usedNext: false };
  }
  return { found, usedNext: false };
}

/** An option the entry does not list. */
function other(run: Run, entry: ProgramEntry, name: string, option: string, value: Arg | undefined): Taken {
  if (entry.otherOptions === "flags") return { found: [], usedNext: false };
  if (entry.otherOptions === "candidate")
    return {
      found: value === undefined ? [{ role: "flag" }] : [{ role: "candidate", value }],
      usedNext: false,
    };
  run.unknown(`${name} ${option}: an option the catalogue does not know`);
  return "unknown";
}
