import type { ShellState } from "../commands/api.js";
import type { CommandSetup } from "../commands/setup.js";
import { programName } from "../shell/program-name.js";
import { COMMAND_ARGS } from "./exec-arguments.js";
import { type KnownTool, nameWords } from "./tool-table.js";

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
  // A tool named `exec` or `execute` with a command argument runs it in a shell (the suites'
  // `exec {command}`); `execute_sql` and `execute_python` still name another language below.
  "exec",
  "execute",
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
export interface ShellCommand {
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
export function shellCommand(
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

export const copyState = (s: ShellState): ShellState => ({
  cwds: [...s.cwds],
  vars: new Map(s.vars),
  defined: new Set(s.defined),
  ...(s.carried === undefined ? {} : { carried: new Map(s.carried) }),
});
