import type { SyntaxNode } from "./syntax.js";

// Small readings of a syntax tree shared by the word, redirection and statement readers.

/** Thrown where the reader meets a shape it does not know; readScript turns it into a refusal. */
export class Unreadable extends Error {}

export const fail = (why: string): never => {
  throw new Unreadable(why);
};

export function children(n: SyntaxNode): Array<{ node: SyntaxNode; field: string | null }> {
  const out: Array<{ node: SyntaxNode; field: string | null }> = [];
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c !== null) out.push({ node: c, field: n.fieldNameForChild(i) });
  }
  return out;
}

export const named = (n: SyntaxNode): SyntaxNode[] =>
  children(n)
    .map((c) => c.node)
    .filter((c) => c.isNamed && c.type !== "comment");

/** A node's text for a message, cut to 60 characters. */
export const short = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** The node types that are statements of their own (also when hung under a here-document). */
const STATEMENTS = new Set([
  "command",
  "declaration_command",
  "unset_command",
  "variable_assignment",
  "variable_assignments",
  "redirected_statement",
  "pipeline",
  "list",
  "subshell",
  "compound_statement",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "function_definition",
  "negated_command",
  "test_command",
]);

export const isStatementType = (t: string): boolean => STATEMENTS.has(t);
