import type { Effect } from "../types.js";
import { commandTokens } from "./command-tokens.js";
import { inWorkdir, isRelativeWord, workdirOf } from "./extract.js";
import { knownTool, nameWords } from "./tool-table.js";

// Which written paths of a call may be whole FOLDERS that are moved, copied into place or
// removed. For those, a protected path below the folder counts too: moving a prepared folder onto
// `repo/.git` plants `hooks/pre-commit` without ever naming it, and removing `~/.config` removes
// every user unit. Plain writes (write_file, create_directory) name one file or an empty folder
// and are judged by the path alone, so that their verdicts do not change.

/** Words in a tool's name that move, copy, unpack or remove what its paths name. */
const MOVER_WORDS = new Set([
  "move",
  "mv",
  "rename",
  "ren",
  "copy",
  "cp",
  "delete",
  "del",
  "remove",
  "rm",
  "rmdir",
  "trash",
  "extract",
  "unzip",
  "unpack",
]);

/** Programs whose operands are moved, copied, linked, unpacked or removed (lower case, no .exe). */
const MOVER_PROGRAMS = new Set([
  "mv",
  "cp",
  "rm",
  "rmdir",
  "ln",
  "rsync",
  "ditto",
  "unzip",
  "move",
  "copy",
  "del",
  "erase",
  "rd",
  "ren",
  "rename",
  "xcopy",
  "robocopy",
  "move-item",
  "copy-item",
  "remove-item",
  "rename-item",
  "mi",
  "cpi",
  "ri",
  "rni",
]);

/** Words that run the next word as the program (`sudo mv …`). */
const WRAPPERS = new Set(["sudo", "doas", "env", "nohup", "command", "builtin", "exec", "time", "nice"]);

const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/** The operands of mover programs in a command line: every word after `mv`, `rm`, … up to `;`, `|`, `&`. */
export function moverOperands(command: string): string[] {
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
    const program = (words[i] ?? "").toLowerCase().replace(/^.*[\\/]/, "").replace(/\.exe$/, "");
    if (MOVER_PROGRAMS.has(program)) out.push(...words.slice(i + 1));
  }
  return out;
}

function commandStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return [value.join(" ")];
  return [];
}

/**
 * A test for the effects of one call whose path may be a folder moved, copied or removed as a
 * whole: the arguments a table tool declares (move_file's source and destination), every written
 * path of an unfamiliar tool whose name says it moves or removes, and the operands of mover
 * programs inside an exec tool's command (with the call's working directory applied as the
 * extractor applies it).
 */
export function containerTest(
  tool: string,
  args: Record<string, unknown>,
  execClass: boolean,
): (effect: Effect) => boolean {
  const known = knownTool(tool, args);
  const isWrite = (e: Effect) => e.kind === "path" && e.operation === "write";
  if (execClass || known?.exec === true) {
    const spelled = new Set<string>();
    const workdir = workdirOf(args);
    for (const [name, value] of Object.entries(args)) {
      const role = known?.args[name];
      if (role !== undefined && role !== "command") continue;
      for (const command of commandStrings(value))
        for (const word of moverOperands(command)) {
          spelled.add(word);
          if (workdir && isRelativeWord(word)) spelled.add(inWorkdir(workdir.dir, word));
        }
    }
    return (e) => isWrite(e) && spelled.has(e.spelled);
  }
  if (known !== undefined) {
    const names = known.containers ?? [];
    return (e) =>
      isWrite(e) && names.some((n) => e.at === `arguments.${n}` || e.at.startsWith(`arguments.${n}[`));
  }
  if (nameWords(tool).some((w) => MOVER_WORDS.has(w))) return isWrite;
  return () => false;
}
