import type { ArgRole } from "./tool-table.js";

/** Argument names that carry the command of an exec-class tool, in order of preference. */
export const COMMAND_ARGS = ["command", "cmd", "code", "script", "input", "stdin", "args", "argv"];

/** Arguments that set where an exec call's command runs. */
const WORKDIR_ARGS = ["cwd", "workdir", "working_directory", "workingDirectory", "directory", "dir"];

/** The command string an exec effect shows: the command argument if there is one, else the tool. */
export function commandOf(
  tool: string,
  args: Record<string, unknown>,
  declared: Record<string, ArgRole>,
): string {
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
