// Every subcommand, in the order `effectgate --help` lists them. Adding one is one row here and
// one module exporting `command: CommandDeclaration` (docs/cli.md, "Adding a command"). Modules
// load only when their command runs, so the relay never loads them.
import type { CommandDeclaration } from "./declaration.js";

export interface CommandEntry {
  name: string;
  /** One line for the list in `effectgate --help`. */
  summary: string;
  load(): Promise<{ command: CommandDeclaration }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "status",
    summary: "what is guarded, and what enforce would have refused lately",
    load: () => import("../status.js"),
  },
  { name: "check", summary: "explain how one call would be judged", load: () => import("../check.js") },
  {
    name: "approve",
    summary: "pin a server's tool descriptions in a lockfile (--diff to review)",
    load: () => import("../approve.js"),
  },
  {
    name: "replay",
    summary: "print a readable transcript of session logs",
    load: () => import("../replay.js"),
  },
  {
    name: "eval",
    summary: "measure attack recall and benign false positives",
    load: () => import("../eval.js"),
  },
  {
    name: "pending",
    summary: "list the questions that wait for your word (--json for scripts)",
    load: () => import("../pending.js"),
  },
  {
    name: "allow",
    summary: "allow a waiting question, once or --for a while",
    load: () => import("../allow.js"),
  },
  { name: "install", summary: "wrap the MCP servers in client configs", load: () => import("../install.js") },
  { name: "uninstall", summary: "restore wrapped client configs", load: () => import("../uninstall.js") },
  { name: "verify", summary: "compare client configs with a baseline", load: () => import("../verify.js") },
  { name: "watch", summary: "report client-config drift as it happens", load: () => import("../watch.js") },
  { name: "version", summary: "print the version", load: () => import("../version.js") },
];

export function commandNamed(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
