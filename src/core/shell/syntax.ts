/**
 * What the shell reader needs from a parsed syntax tree: the shape web-tree-sitter's nodes have,
 * named here so that core depends on no parser at run time (the parser is loaded at the edge,
 * src/platform/shell-parser.ts, and only when a command is first judged).
 */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly hasError: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly childCount: number;
  child(index: number): SyntaxNode | null;
  fieldNameForChild(index: number): string | null;
}

/** A parse of one command string; `release` frees what the parser holds for it. */
export interface SyntaxTree {
  readonly rootNode: SyntaxNode;
  release(): void;
}

/** A POSIX/bash grammar: parses text, or says it could not. */
export interface ShellParser {
  parse(text: string): SyntaxTree | undefined;
}
