// Errors that carry their own exit code, so that main.ts is the only place mapping them.

/** Every code effectgate itself exits with (the relay otherwise exits with the server's). */
export const EXIT = {
  /** Done; nothing found. */
  ok: 0,
  /** A subcommand found drift, a diff, a failed threshold, or (check) a confirm verdict. */
  finding: 1,
  /** Bad command-line words. */
  usage: 2,
  /** check: the call would be denied. */
  deny: 3,
  /** A bug in effectgate: an exception nothing expected (sysexits EX_SOFTWARE). */
  internal: 70,
  /** A policy, lock, baseline or setting that cannot be used (sysexits EX_CONFIG). */
  config: 78,
  /** The server could not be started. */
  cannotStart: 127,
} as const;

/** One problem in a configuration file, printed as `file:line: key: expected X, got Y`. */
export interface ConfigProblem {
  file: string;
  line?: number;
  key: string;
  expected: string;
  got: string;
}

export function formatProblem(p: ConfigProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  return `${where}: ${p.key}: expected ${p.expected}, got ${p.got}`;
}

/** A policy, lock or baseline that cannot be used. Exit 78, one line per problem. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  constructor(problems: readonly ConfigProblem[]) {
    super(problems.map(formatProblem).join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/**
 * Bad command-line words. Exit 2, said as `effectgate <command>: <message>`. Commands throw it
 * without their name; the command runner (src/commands/cli/run.ts) adds it.
 */
export class UsageError extends Error {
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}

/** The server could not be started. Exit 127. */
export class CannotStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CannotStartError";
  }
}

/** Describe a value for "got X" in messages without dumping it whole. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string")
    return value.length > 40 ? `"${value.slice(0, 37)}..."` : JSON.stringify(value);
  return `${typeof value} ${String(value)}`;
}
