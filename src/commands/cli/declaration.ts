// How a command is declared. Parsing (parse.ts), help (help.ts) and usage errors all read these
// declarations, so every command has the same option rules, help layout and error style.

/** One option, with what it means and what applies when it is not given. */
export interface OptionDeclaration {
  /** As commander spells it: "--dry-run", "--level <level>", "--exclude <id...>". */
  flags: string;
  /** What the option does, in a short sentence. */
  meaning: string;
  /** What applies when the option is not given, as help shows it ("observe", "off"). */
  default: string;
  /** The value the command reads when the option is not given (a flag reads false). */
  value?: unknown;
  /** Checks and converts one given value; throws UsageError("expected …, got …"), which the
   *  parser says as `--flag: expected …, got …`. */
  parse?: (text: string) => unknown;
  /** Every value is kept, in order, as a list; otherwise the last one given wins. */
  repeatable?: boolean;
}

/** One word after the options (not after `--`), such as replay's LOG|DIR. */
export interface OperandDeclaration {
  /** As commander spells it: "[log]" (optional) or "<file>" (required). */
  name: string;
  meaning: string;
  default: string;
}

export interface Example {
  command: string;
  /** What it does, in a few words. */
  says: string;
}

/** What a command receives: option values by commander's camelCase names, operands, and the
 *  verbatim words after `--` for commands that start a server. */
export interface Parsed {
  /** The words as given, after the command's name. */
  words: string[];
  options: Record<string, unknown>;
  operands: string[];
  server: string[];
}

export interface CommandDeclaration {
  /** What it does and what its exit codes mean; a few short sentences. */
  description: string;
  options: readonly OptionDeclaration[];
  operands?: readonly OperandDeclaration[];
  /** Set for commands that start a server: the words after `--` are its command line, kept
   *  verbatim and required. `example` is a full command line for the error that asks for it. */
  serverCommand?: {
    example: string;
    /** An option (commander's name) that gives the server another way: with it, no `--`. */
    unlessOption?: string;
  };
  /** One to three, each a full command line a user could type. */
  examples: readonly Example[];
  run(parsed: Parsed): Promise<number>;
}
