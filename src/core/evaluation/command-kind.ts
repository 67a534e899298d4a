// What kind of work a judged call is, for eval's per-kind figure (issue 19, decision 0142). The
// catalogue already says what each simple command amounts to (its class effect); this only
// groups those classes into the kinds people name: reads, builds and tests, git, package installs.
import type { Effect } from "../types.js";

export const COMMAND_KINDS = [
  "reads and files",
  "builds and tests",
  "git",
  "package installs",
  "other",
] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

/** Programs that install packages, and the subcommands that do (`npm ci`, `pip install`, `uv sync`). */
const INSTALLERS = new Set(
  "npm pnpm yarn bun pip pip3 uv poetry pipenv conda mamba micromamba cargo gem bundle go composer brew".split(
    " ",
  ),
);
const INSTALLS = new Set("install i add ci sync update upgrade uninstall remove".split(" "));

/** Whether a simple command, as written, runs a package manager's install (also `python -m pip install`). */
function installs(command: string): boolean {
  const words = command.split(/\s+/).filter((w) => w !== "" && !w.startsWith("-"));
  const at = words.findIndex((w) => INSTALLERS.has(w));
  return at >= 0 && INSTALLS.has(words[at + 1] ?? "");
}

/** One simple command's kind, from its class effect. */
function kindOf(effect: Effect): CommandKind {
  const via = effect.via;
  if (via?.class === undefined) return "other"; // a command read the old way (no grammar)
  if (via.program === "git") return "git";
  switch (via.class) {
    case "reads":
    case "none":
    case "fetch":
      return "reads and files";
    case "project":
      return installs(via.command) ? "package installs" : "builds and tests";
    default:
      return "other";
  }
}

/** Which wins when a call runs several simple commands: what is least ordinary says most. */
const RANK: Record<CommandKind, number> = {
  "reads and files": 0,
  git: 1,
  "builds and tests": 2,
  "package installs": 3,
  other: 4,
};

/**
 * The kind of command a call runs, or undefined when it runs none (a file tool's read). `cd app
 * && npm ci` is a package install; anything the catalogue cannot judge makes it `other`.
 */
export function commandKind(effects: readonly Effect[]): CommandKind | undefined {
  let kind: CommandKind | undefined;
  for (const e of effects) {
    if (e.kind !== "command" || e.operation !== "exec") continue;
    const k = kindOf(e);
    if (kind === undefined || RANK[k] > RANK[kind]) kind = k;
  }
  return kind;
}

/** The program a call of kind `other` is counted under: its first program the catalogue cannot rate. */
export function otherProgram(effects: readonly Effect[]): string {
  const unrated = effects.find(
    (e) => e.kind === "command" && e.operation === "exec" && kindOf(e) === "other",
  );
  return unrated?.via?.program ?? unrated?.spelled.split(/\s+/)[0] ?? "(unknown)";
}
