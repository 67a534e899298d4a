import type { Catalogue, Role } from "../policy/catalogue.js";
import type { ScriptReading } from "../shell/script-model.js";
import type { CommandClass, CommandVia, ConfiguredRemotes, Operation } from "../types.js";
import type { WordValue } from "./words.js";

/**
 * An effect of a command before it is placed at an argument: a path read or written, a URL
 * fetched, data sent to a destination (`egress`, spelled as the command names the place:
 * a URL, `host:port`, `user@host`), or what running a program amounts to (a class effect).
 */
export interface CommandEffect {
  operation: Operation;
  kind: "path" | "url" | "egress" | "command";
  spelled: string;
  via: CommandVia;
}

/** A working folder: a spelling, `undefined` for the server's own, `null` for one known only at run time. */
export type Cwd = string | undefined | null;

/** What persists in a shell that later input is typed into (Desktop Commander's interact_with_process). */
export interface ShellState {
  cwds: Cwd[];
  /** Variables set so far: a value, or undefined for one known only at run time. */
  vars: Map<string, string | undefined>;
  /** Names of aliases and functions defined so far: a later command by one of these names is unknown. */
  defined: Set<string>;
  /** What the variables set so far hold of secret data: `K=$(cat ~/.ssh/id_rsa)` (decision 0137). */
  carried?: Map<string, Carries>;
}

export interface CommandContext {
  catalogue: Catalogue;
  /** Variables that run code (GIT_PAGER, BASH_ENV, NODE_OPTIONS…): name → how. */
  codeVariables: ReadonlyMap<string, CodeVariable>;
  /** Parses another piece of shell text (an `sh -c` script, an eval, a here-document). */
  parse: (text: string) => ScriptReading;
  /** Where the command starts; undefined entries stand for the server's own folder. */
  cwds: Cwd[];
  /** The shell the command is typed into, when it persists (its state is updated in place). */
  shell?: ShellState;
  /** The process is kept and typed into later (start_process): a program reading its input waits for it. */
  interactive?: boolean;
  /** Git remotes and ssh aliases of this machine: where `git push origin` and `ssh alias` go. */
  remotes?: ConfiguredRemotes;
}

/** How a variable runs code: its value is a command, a file loaded as code, or options of an interpreter. */
export type CodeVariable = "command" | "file" | "options";

export interface Analysis {
  effects: CommandEffect[];
  /** Texts of simple commands the catalogue does not know: read the old way (every word a path). */
  legacy: string[];
  /** Why the command cannot be read at all (then `effects` is empty and the caller judges it the old way). */
  unreadable?: string;
  /** Why the command cannot be judged (a brace expansion too large to follow). */
  unjudgeable?: string;
}

/** A found file: a word that stands for any path below some folders (`{}` of find, items of xargs). */
export interface Below {
  roots: string[];
  /** Names the files are known to have (find -name '*.pem'), with globs: a sample of each is judged too. */
  names?: string[];
}

/** A word as a program receives it, with what it may stand for. */
export interface Arg {
  value: WordValue;
  below?: Below;
  /** For a value known only at run time: words it may be (xargs items: the words of what feeds them). */
  alternatives?: Arg[];
  /** A command substitution in it fetched from the network (`"$(curl …)"`, `<(curl …)`). */
  fetched?: boolean;
}

/**
 * Data a program may print, so a program downstream that sends its input sends it too: the
 * files read before it in a pipeline or inside a substitution, and whether the environment
 * was printed (`env`, `printenv`, `set`) and by what.
 */
export interface Carries {
  reads: CommandEffect[];
  environment?: string;
  /** Variables of the server's environment named like credentials, referenced in a word (`$GITHUB_TOKEN`). */
  variables?: string[];
}

/** Where a program's standard input comes from. */
export type Stdin =
  | { kind: "none" }
  /** A pipe; `network` when something earlier in the pipeline fetched from the network. */
  | { kind: "pipe"; network: boolean; items?: Below; words?: Arg[]; from?: string; carries?: Carries }
  | { kind: "heredoc"; text: string; expands: boolean; carries?: Carries }
  | { kind: "file"; arg: Arg; carries?: Carries }
  | { kind: "string"; arg: Arg; carries?: Carries };

/** What the analyser offers the catalogue's interpreter and handlers. */
export interface Run {
  readonly program: string;
  readonly command: string;
  /** Judge `arg` in `role`, from the current working folders. */
  role(role: Role, arg: Arg, does?: string): void;
  /** What running the program amounts to. */
  cls(cls: CommandClass, does: string, extra?: Partial<CommandVia>): void;
  /** The program's effects are not known. */
  unknown(why: string): void;
  /** Run `args` as a command (a wrapper's command, find -exec, xargs). */
  wrap(args: Arg[]): void;
  /** Run shell code given as text. */
  shell(code: Arg, positional?: Arg[]): void;
  /** A variable set for the program (`env NAME=value`): judged like an assignment. */
  variable(name: string, value: Arg): void;
  /** Work in another folder for the rest of this program's words (`git -C dir`). */
  chdir(dir: Arg): void;
  /** The program's standard input. */
  readonly stdin: Stdin;
  /** The process is kept and typed into later (CommandContext.interactive). */
  readonly interactive: boolean;
  /** Judge a piece of code in another language the old way (every literal a path). */
  legacy(text: string): void;
  /** Records that this program lists paths below `roots`, named like `names` (for a downstream xargs). */
  lists(roots: string[], names?: string[]): void;
  /** The program sends its standard input: a file redirected there, or what earlier stages printed. */
  sendsStdin(): void;
  /** The program prints the environment (`env`, `printenv`): `how` names it for messages. */
  printsEnvironment(how: string): void;
}
