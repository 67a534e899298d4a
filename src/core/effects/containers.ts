import type { Effect } from "../types.js";
import { commandTokens } from "./command-tokens.js";
import { commandText, inWorkdir, isRelativeWord, workdirOf } from "./extract.js";
import { knownTool, nameWords } from "./tool-table.js";

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
const REMOVER_PROGRAMS = new Set(["rm", "rmdir", "del", "erase", "rd", "remove-item", "ri"]);

/** Programs whose operands are moved, copied, linked or unpacked (lower case, no .exe). */
const MOVER_PROGRAMS = new Set([
  "mv",
  "cp",
  "ln",
  "rsync",
  "ditto",
  "unzip",
  "move",
  "copy",
  "ren",
  "rename",
  "xcopy",
  "robocopy",
  "move-item",
  "copy-item",
  "rename-item",
  "mi",
  "cpi",
  "rni",
]);

/** Words that run the next word as the program (`sudo mv …`). */
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "command", "builtin", "exec", "time", "nice"]);

const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/** The operands of mover programs in a command line: every word after `mv`, `cp`, … up to `;`, `|`, `&`. */
export function moverOperands(command: string, programs: ReadonlySet<string> = MOVER_PROGRAMS): string[] {
  const out: string[] = [];
  for (const part of command.split(/[;|&\r\n()`]+/)) {
    const words = commandTokens(part);
    let i = 0;
    for (; i < words.length; i++) {
      const w = words[i] as string;
      if (ASSIGNMENT.test(w)) {
        if (words[i + 1] === w.slice(w.indexOf("=") + 1)) i++; // the value commandTokens also yields
        continue;
      }
      if (!WRAPPERS.has(w.toLowerCase())) break;
    }
    const program = (words[i] ?? "")
      .toLowerCase()
      .replace(/^.*[\\/]/, "")
      .replace(/\.exe$/, "");
    if (programs.has(program)) out.push(...words.slice(i + 1));
  }
  return out;
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
    const placed = operandsIn(args, known?.args, MOVER_PROGRAMS);
    const removed = operandsIn(args, known?.args, REMOVER_PROGRAMS);
    return (e) =>
      !isPath(e)
        ? undefined
        : placed.has(e.spelled)
          ? "place"
          : removed.has(e.spelled)
            ? "remove"
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

/** The operands of `programs` in the command arguments, also placed in the call's working directory. */
function operandsIn(
  args: Record<string, unknown>,
  roles: Readonly<Record<string, string>> | undefined,
  programs: ReadonlySet<string>,
): Set<string> {
  const spelled = new Set<string>();
  const workdir = workdirOf(args);
  for (const [name, value] of Object.entries(args)) {
    const role = roles?.[name];
    if (role !== undefined && role !== "command") continue;
    const command = commandText(value);
    if (command === undefined) continue;
    for (const word of moverOperands(command, programs)) {
      spelled.add(word);
      if (workdir && isRelativeWord(word)) spelled.add(inWorkdir(workdir.dir, word));
    }
  }
  return spelled;
}
