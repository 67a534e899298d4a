// Vocabulary of the clients layer: where configs live, what a server declaration looks like,
// and what install/uninstall intend to do with it. Pure types.
import type { MachineFacts } from "../platform/client-paths.js";

export type { MachineFacts };

export type Format = "json" | "jsonc" | "toml" | "yaml";
export type Scope = "user" | "project" | "system";

/** How a client spells a local server's program. */
export type CommandStyle =
  | "command+args" // {"command": "npx", "args": ["-y", "pkg"]}
  | "argv-array"; // opencode: {"command": ["npx", "-y", "pkg"]}

/** One config file a client may read. */
export interface ConfigFile {
  client: string;
  path: string;
  scope: Scope;
  format: Format;
  /** install and uninstall leave this file alone, for this reason (verify and watch still read it). */
  readOnly?: string;
}

/** Where in the parsed document servers live. */
export interface ServerContainer {
  /** Path of the map (or list, for Continue) holding the servers. */
  at: (string | number)[];
  /** Prefix for server names, e.g. `projects/<dir>/` for Claude Code's local scope. */
  label: string;
}

export interface ClientSpec {
  name: string;
  title: string;
  /** Files for this machine and project folder; the caller keeps only those that exist. */
  files(facts: MachineFacts, projectDir: string): Omit<ConfigFile, "client">[];
  /** The server maps (or, for Continue's YAML, lists of `{name, ...}` items) inside a parsed file. */
  containers(doc: unknown, file: ConfigFile): ServerContainer[];
  commandStyle: CommandStyle;
  /** Key holding environment variables (opencode: `environment`). */
  envKey: string;
  /** Warnings that apply whenever this client's files are changed. */
  notes(facts: MachineFacts, file: ConfigFile): string[];
}

/** A server declaration reduced to what matters for launch and for drift. */
export interface ServerDecl {
  /** Display name, with the container's label. */
  name: string;
  /** The server's own name in the config (map key, or a list item's `name`), without the label. */
  key?: string;
  /** Path of the declaration inside the document. */
  at: (string | number)[];
  kind: "stdio" | "remote" | "invalid";
  /** Full argv for stdio servers (program first). */
  argv?: string[];
  url?: string;
  cwd?: string;
  type?: string;
  envNames: string[];
  headerNames: string[];
  /** The values the declaration's env gives EFFECTGATE_OFF, as text; never stored (only whether
   *  one switches checks off is, see baseline.ts). */
  offValues?: string[];
  /** Why a declaration is invalid. */
  problem?: string;
}
