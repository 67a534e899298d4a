import type { SyntaxNode } from "./syntax.js";

/**
 * A command string as bash reads it, in the few shapes the judge needs: simple commands with
 * their words (each word a list of literal and expanded parts), assignments and redirections,
 * inside pipelines, groups, loops and functions. Read from a tree-sitter-bash syntax tree
 * (docs/decisions/0078-shell-grammar.md). Anything the reader does not know how to read is
 * reported, never skipped: the caller then judges the command as unknown.
 */

export type WordPart =
  /** Characters as the program receives them; `quoted` when quotes made globs and braces literal. */
  | { kind: "text"; text: string; quoted: boolean }
  /** `$X`, `${X…}`: `source` as written, `name` the variable, `op` what follows the name inside braces. */
  | { kind: "var"; name: string; op: string; source: string; quoted: boolean }
  /** `$(…)` or backticks: the output of commands. */
  | { kind: "subst"; body: Statement; source: string }
  /** `<(…)`, `>(…)`: a pipe to or from commands, named by a path like /dev/fd/63. */
  | { kind: "procsub"; output: boolean; body: Statement; source: string }
  /** `$((…))`: a number (its inside may hold substitutions, kept in `inner`). */
  | { kind: "arith"; inner: Statement[]; source: string };

export interface ShellWord {
  source: string;
  parts: WordPart[];
  /** Where the word is in the command text (to join pieces tree-sitter-bash split, see joinAdjacent). */
  start?: number;
  end?: number;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `>&`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The file descriptor written before the operator (`2>`), if any. */
  fd?: string;
  /** The file, or the descriptor after `>&`. */
  target?: ShellWord;
  /** A here-document's text, and whether the shell expands it (its delimiter was not quoted). */
  heredoc?: { text: string; expands: boolean; parts: WordPart[] };
}

export interface Assignment {
  name: string;
  /** Absent for `export NAME` (no value); an array assignment keeps its elements. */
  value?: ShellWord;
  elements?: ShellWord[];
  append: boolean;
}

export interface SimpleCommand {
  kind: "simple";
  source: string;
  /** `NAME=value` before the program (or the whole statement when there is no program). */
  assigns: Assignment[];
  /** The program and its arguments. For `export`/`declare`/`local`/`readonly`/`typeset`: the builtin first. */
  words: ShellWord[];
  /** Assignments made by `export A=1`, `declare -x B=2`, `local C=3`. */
  declares: Assignment[];
  redirects: Redirect[];
}

export type Statement =
  | SimpleCommand
  | { kind: "pipeline"; stages: Statement[]; source: string }
  | { kind: "sequence"; items: Statement[] }
  | { kind: "group"; subshell: boolean; body: Statement; redirects: Redirect[]; source: string }
  | { kind: "function"; name: string; body: Statement; source: string }
  | { kind: "for"; variable?: string; values?: ShellWord[]; body: Statement; source: string }
  /** `[[ … ]]`, `(( … ))`, case patterns: words whose only effects are their substitutions. */
  | { kind: "test"; words: ShellWord[] };

export type ScriptReading = { ok: true; script: Statement } | { ok: false; why: string };

/** How the word and redirection readers read the statements inside `$(…)` and after here-documents. */
export interface StatementReader {
  statement(node: SyntaxNode): Statement;
  sequence(nodes: SyntaxNode[]): Statement;
}
