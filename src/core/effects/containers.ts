import type { Effect } from "../types.js";
import { commandReadings, commandTokens } from "./command-tokens.js";
import { inWorkdir, isRelativeWord } from "../shell/workdir.js";
import { COMMAND_ARGS, workdirsOf } from "./exec-arguments.js";
import { invocations, lexCommands, type LexMode, scriptOf } from "./shell-words.js";
import { knownTool, nameWords } from "./tool-table.js";
import { wordReadings } from "../shell/word-readings.js";

// Which written paths of a call may be whole FOLDERS that are moved, copied, linked or unpacked
// into place ("place"), or removed ("remove"). For those, a protected path below the folder
// counts too: moving a prepared folder onto `repo/.git` plants `hooks/pre-commit` without ever
// naming it, and removing `~/.config` removes every user unit. A removal only counts anchored
// patterns below it (a user's own files): name patterns such as the one for effectgate's own
// install under node_modules would otherwise deny every `rm -rf node_modules`, and a removal
// plants nothing in a project. Plain writes (write_file, create_directory) name one file or an
// empty folder and are judged by the path alone, so that their verdicts do not change.

export type ContainerKind = "place" | "remove";

/** Words in a tool's name that move, copy or unpack into what its paths name. */
const MOVER_WORDS = new Set(["move", "mv", "rename", "ren", "copy", "cp", "extract", "unzip", "unpack"]);

/** Words in a tool's name that remove what its paths name. */
const REMOVER_WORDS = new Set(["delete", "del", "remove", "rm", "rmdir", "trash"]);

/** Programs whose operands are removed (lower case, no .exe). */
const REMOVER_PROGRAMS = new Set([
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "trash",
  "trash-put",
  "rimraf",
  "del",
  "erase",
  "rd",
  "remove-item",
  "ri",
]);

/** Programs whose operands are moved, copied, linked, packed or unpacked (lower case, no .exe). */
const MOVER_PROGRAMS = new Set([
  "mv",
  "cp",
  "ln",
  "rsync",
  "scp",
  "ditto",
  "unzip",
  "tar",
  "bsdtar",
  "7z",
  "7za",
  "move",
  "copy",
  "ren",
  "rename",
  "xcopy",
  "robocopy",
  "mklink",
  "move-item",
  "copy-item",
  "rename-item",
  "mi",
  "cpi",
  "rni",
  "expand-archive",
  "compress-archive",
]);

/** How deep scripts inside scripts are followed (`sh -c "bash -c 'mv a b'"`). */
const MAX_DEPTH = 4;

/**
 * The operands of mover programs in a command line: every word after `mv`, `cp`, … in its simple
 * command, in every reading of the command (commandReadings), behind wrappers (`sudo -u root`,
 * `timeout 5`, `xargs`), keywords (`then`, `do`, `!`) and inside scripts (`sh -c '…'`, quoted
 * code). Under `xargs` the operands also come from the pipe, so every word of the command counts.
 * Each operand comes with its readings (wordReadings), so that it matches the effect it yields.
 * A list of words is one argv: its elements are the words, as no shell splits them.
 */
export function moverOperands(
  command: string | readonly string[],
  programs: ReadonlySet<string> = MOVER_PROGRAMS,
): string[] {
  const out = new Set<string>();
  operandsOf(command, [{ programs, out }]);
  return [...out];
}

/** Programs to look for, and where their operands go. */
type Finder = { programs: ReadonlySet<string>; out: Set<string> };

/** moverOperands for several sets of programs in one reading of the command. */
function operandsOf(command: string | readonly string[], finders: readonly Finder[]): void {
  const seen = new Set<string>();
  const text = typeof command === "string" ? command : command.join(" ");
  if (typeof command !== "string") fromWords(command, text, finders, 0, seen);
  fromText(text, finders, 0, seen);
}

function fromText(command: string, finders: readonly Finder[], depth: number, seen: Set<string>): void {
  // The same bound as commandReadings: past it that reading has already made the call unjudgeable.
  if (seen.has(command) || seen.size > 4096) return;
  seen.add(command);
  // Without quotes or escapes, PowerShell and cmd split the command as a POSIX shell does.
  const modes: LexMode[] = /['"\\`^$]/.test(command) ? ["posix", "windows"] : ["posix"];
  for (const mode of modes) {
    const lexed = lexCommands(command, mode);
    for (const { words } of lexed.commands) fromWords(words, command, finders, depth, seen);
    if (depth < MAX_DEPTH) for (const literal of lexed.quoted) fromText(literal, finders, depth + 1, seen);
  }
}

function fromWords(
  words: readonly string[],
  command: string,
  finders: readonly Finder[],
  depth: number,
  seen: Set<string>,
): void {
  for (const inv of invocations(words)) {
    for (const { programs, out } of finders) {
      if (!programs.has(inv.program)) continue;
      for (const w of inv.args) for (const r of wordReadings(w).words) out.add(r);
      if (inv.underXargs) for (const w of commandTokens(command)) out.add(w);
    }
    const script = scriptOf(inv);
    if (script !== undefined && depth < MAX_DEPTH) fromText(script, finders, depth + 1, seen);
  }
}

/**
 * For the effects of one call, whether a path may be a folder placed (moved, copied, unpacked)
 * or removed as a whole: the arguments a table tool declares (move_file's source and
 * destination), every written path of an unfamiliar tool whose name says so, and the operands of
 * such programs inside an exec tool's command (with the call's working directory applied as the
 * extractor applies it).
 */
export function containerTest(
  tool: string,
  args: Record<string, unknown>,
  execClass: boolean,
): (effect: Effect) => ContainerKind | undefined {
  const known = knownTool(tool, args);
  // Reads count too: moving or copying a folder away hands what is below it to a name that no
  // rule protects (`move_file ~/.password-store ~/ps`, then read ~/ps/…); judgeBelow chooses the
  // lists by the effect's operation.
  const isPath = (e: Effect) => e.kind === "path" && (e.operation === "write" || e.operation === "read");
  if (execClass || known?.exec === true) {
    const { placed, removed } = operandsIn(args, known?.args);
    const globbed = globFoldersIn(args, known?.args);
    return (e) =>
      !isPath(e)
        ? undefined
        : placed.has(e.spelled)
          ? "place"
          : removed.has(e.spelled)
            ? "remove"
            : globbed.has(e.spelled)
              ? "place"
              : undefined;
  }
  if (known !== undefined) {
    const under = (e: Effect, names: readonly string[] | undefined) =>
      names?.some((n) => e.at === `arguments.${n}` || e.at.startsWith(`arguments.${n}[`)) === true;
    return (e) =>
      !isPath(e)
        ? undefined
        : under(e, known.containers)
          ? "place"
          : under(e, known.removes)
            ? "remove"
            : undefined;
  }
  const words = nameWords(tool);
  const kind: ContainerKind | undefined = words.some((w) => MOVER_WORDS.has(w))
    ? "place"
    : words.some((w) => REMOVER_WORDS.has(w))
      ? "remove"
      : undefined;
  return (e) => (isPath(e) ? kind : undefined);
}

/** The command texts of an exec call: each command argument, and the program and argv given apart. */
function commandsIn(
  args: Record<string, unknown>,
  roles: Readonly<Record<string, string>> | undefined,
): Array<string | string[]> {
  const out: Array<string | string[]> = [];
  for (const [name, value] of Object.entries(args)) {
    // Own keys only: an argument named `constructor` has no role.
    const role = roles !== undefined && Object.hasOwn(roles, name) ? roles[name] : undefined;
    if (role !== undefined && role !== "command") continue;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value) && value.every((x) => typeof x === "string")) out.push(value as string[]);
  }
  // `{command: "mv", args: ["/tmp/prep", "repo/.git"]}`: the program and its argv in two
  // arguments, read together in the order a server joins them.
  const parts = COMMAND_ARGS.map((n) => args[n]).filter(
    (v): v is string | string[] =>
      typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string")),
  );
  if (parts.length > 1) out.push(parts.flatMap((p) => (typeof p === "string" ? [p] : p)));
  return out;
}

/** `word`, and `word` in each working directory the call names (for a relative word). */
function placedIn(word: string, dirs: ReadonlyArray<{ dir: string }>, into: Set<string>): void {
  into.add(word);
  if (!isRelativeWord(word)) return;
  for (const { dir } of dirs) into.add(inWorkdir(dir, word));
}

/** The operands of movers and removers in the command arguments, also placed in the call's working directories. */
function operandsIn(
  args: Record<string, unknown>,
  roles: Readonly<Record<string, string>> | undefined,
): { placed: Set<string>; removed: Set<string> } {
  const dirs = workdirsOf(args);
  const placed = new Set<string>();
  const removed = new Set<string>();
  for (const command of commandsIn(args, roles)) {
    const movers = { programs: MOVER_PROGRAMS, out: new Set<string>() };
    const removers = { programs: REMOVER_PROGRAMS, out: new Set<string>() };
    operandsOf(command, [movers, removers]);
    for (const word of movers.out) placedIn(word, dirs, placed);
    for (const word of removers.out) placedIn(word, dirs, removed);
  }
  return { placed, removed };
}

/** The folders globs in the command arguments reach into (`cp k ~/.ss?/x` → `~`), placed likewise. */
function globFoldersIn(
  args: Record<string, unknown>,
  roles: Readonly<Record<string, string>> | undefined,
): Set<string> {
  const spelled = new Set<string>();
  const dirs = workdirsOf(args);
  for (const command of commandsIn(args, roles)) {
    const texts = typeof command === "string" ? [command] : command;
    for (const t of texts) {
      // Most commands have no glob character at all: no need to read them again.
      if (!/[*?[]/.test(t)) continue;
      for (const folder of commandReadings(t).globFolders) placedIn(folder, dirs, spelled);
    }
  }
  return spelled;
}
