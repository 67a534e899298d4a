// Vocabulary shared by every layer. Pure types: no behaviour lives here.

/** How hard effectgate acts on a verdict. Defined once, in levels.ts. */
export type Level = "observe" | "enforce" | "strict";
export const LEVELS: readonly Level[] = ["observe", "enforce", "strict"];

/** The policy's answer for one call; deny > confirm > allow. */
export type Verdict = "allow" | "confirm" | "deny";

/** Each verdict's strictness, to compare two: deny > confirm > allow. */
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { allow: 0, confirm: 1, deny: 2 };

/** JSON-RPC ids: `1` and `"1"` are different ids and must stay so. */
export type JsonRpcId = string | number;

/** Which file-system rules apply to a path: profiles exist for all three on every OS. */
export type Platform = "linux" | "darwin" | "win32";

/** What a call would do with one thing it names. `send` carries data off to a destination. */
export type Operation = "read" | "write" | "exec" | "send";

/**
 * Where a request or sent data goes (docs/decisions/0089-egress-destinations.md). At least one
 * member is set; a destination the call does not name at all is no destination.
 */
export interface Destination {
  /** Canonical host (src/core/net/host.ts canonicalHost): lower-case name, dotted IPv4 or `[v6]`. */
  host?: string;
  scheme?: string;
  port?: number;
  /** Who receives it, when that is more than a host: a phone number, a channel, `owner/repo`. */
  recipient?: string;
  /** The service a tool sends to when the call names no host (`github`, `slack`, `the tool's server`). */
  service?: string;
}

export interface Effect {
  operation: Operation;
  /**
   * `path` for file-system effects, `command` for exec, `url` for network reads (a fetch: the
   * request itself carries its URL to the host), `egress` for data a call sends (operation
   * `send`): a message, an issue, a comment, an upload, a POST body, a program that sends
   * (`curl -d`, `scp`, `nc`). Files a sender reads to send them are `read` path effects of their own.
   */
  kind: "path" | "command" | "url" | "egress";
  /** Where in the params the value was found, e.g. `arguments.paths[1]`. */
  at: string;
  /** The value as the call spelled it. */
  spelled: string;
  /** The canonical form that rules are matched against (paths; for url and egress, the destination's key). */
  canonical?: string;
  /** For url and egress effects: where the request or the data goes, when the call says. */
  destination?: Destination;
  /** For an effect of a parsed shell command: which program does what (decision 0079). */
  via?: CommandVia;
}

/**
 * What running one simple command amounts to (docs/decisions/0079-program-catalogue.md), for a
 * class effect (kind `command`); `unknown` takes the exec class action.
 */
export type CommandClass =
  | "none"
  | "reads"
  | "project"
  | "fetch"
  | "sends"
  | "persistence"
  | "code-settings"
  | "network-code"
  | "unknown";

/**
 * The configuration that names where a command sends, read at the edge (decision 0128): the
 * git config of the repository a folder is in (the folder as spelled; undefined for the
 * server's own), and ~/.ssh/config. Undefined: no such file, or it cannot be read.
 */
export interface ConfiguredRemotes {
  gitConfig(cwd: string | undefined): string | undefined;
  sshConfig(): string | undefined;
}

export interface CommandVia {
  /** The program, as the catalogue knows it (`git commit`, `sed`). */
  program: string;
  /** The simple command as written (cut to 200 characters). */
  command: string;
  /** What it does, in words: `writes`, `removes`, `runs code fetched from https://x/p.sh`. */
  does: string;
  /** Set on class effects. */
  class?: CommandClass;
  /** The path is a folder placed or removed as a whole (decision 0043). */
  container?: "place" | "remove";
  /** A removal or a mode change of a whole tree: a protected root there is destructive. */
  tree?: true;
  /** The content comes from the network (curl -o, wget): running it later is running downloaded code. */
  downloaded?: true;
  /** For a run of project code: the folder it runs in, as spelled (undefined: the server's). */
  cwd?: string;
  /** For a run of a file of code: the file, as spelled. */
  runs?: string;
  /** For a path: the word as the program received it, before its readings (`$HOME/.ssh`). */
  word?: string;
  /** A write that may not change what the file says (a mode change, a word of project code that may name a file). */
  weak?: true;
  /** For a read: the program sends the file's content out (curl -d @f, scp f host:, nc host < f). */
  sent?: true;
  /** For a send: data it carries that no file holds (`the environment`, from `env | nc h 80`). */
  carries?: string;
}

export interface Decision {
  verdict: Verdict;
  /** The rule that produced the verdict, e.g. `paths.deny ~/.ssh/**`; absent for a plain allow. */
  rule?: string;
  /** One sentence for humans and for the model. */
  reason: string;
  effects: Effect[];
  tainted: boolean;
  /**
   * Set when the call could not be judged (malformed frame, duplicate keys, over budget, a path
   * that cannot be canonicalised). Such a decision always carries verdict "deny", so that enforce
   * and strict refuse it; observe still only records it.
   */
  unjudgeable?: string;
}
