import type { Redirect, ShellWord, Statement, StatementReader, WordPart } from "./script-model.js";
import type { WordReaders } from "./script-words.js";
import type { SyntaxNode } from "./syntax.js";
import { children, fail, isStatementType, named, short } from "./syntax-walk.js";

// Redirections and here-documents, and the statements tree-sitter-bash hangs under a here-document.

/** What tree-sitter-bash hangs under a here-document: the rest of its pipeline, and what follows it. */
export interface Tail {
  pipeTo: Statement[];
  after: Statement[];
}

export const newTail = (): Tail => ({ pipeTo: [], after: [] });

/** `stmt` with what hung under its here-documents put back in place. */
export function withTail(stmt: Statement, tail: Tail, source: string): Statement {
  const piped: Statement =
    tail.pipeTo.length === 0 ? stmt : { kind: "pipeline", stages: [stmt, ...tail.pipeTo], source };
  return tail.after.length === 0 ? piped : { kind: "sequence", items: [piped, ...tail.after] };
}

/** The reader of redirections, given the word reader and how to read a statement. */
export function redirectReaders({ word, wordParts, argumentWords }: WordReaders, reader: StatementReader) {
  function heredoc(node: SyntaxNode, tail: Tail): Redirect {
    const kids = children(node);
    const op = kids.find((k) => !k.node.isNamed && k.node.type.startsWith("<<"))?.node.type ?? "<<";
    const start = kids.find((k) => k.node.type === "heredoc_start")?.node;
    const body = kids.find((k) => k.node.type === "heredoc_body")?.node;
    const fd = kids.find((k) => k.field === "descriptor")?.node.text;
    // A quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) keeps the text as written.
    const expands = start !== undefined && !/['"\\]/.test(start.text);
    let parts: WordPart[] = [];
    if (body !== undefined && expands) {
      parts = [];
      let at = body.startIndex;
      for (const c of named(body)) {
        if (c.startIndex > at)
          parts.push({
            kind: "text",
            text: body.text.slice(at - body.startIndex, c.startIndex - body.startIndex),
            quoted: true,
          });
        if (c.type === "heredoc_content") parts.push({ kind: "text", text: c.text, quoted: true });
        else parts.push(...wordParts(c, true));
        at = c.endIndex;
      }
      if (body.endIndex > at)
        parts.push({ kind: "text", text: body.text.slice(at - body.startIndex), quoted: true });
    }
    // tree-sitter-bash hangs what follows the operator on the same line (`| sh`, `&& rm x`, `> out`)
    // under the here-document; those are statements (or redirections) of their own.
    for (const k of kids) {
      if (k.field === "redirect" || k.node.type === "heredoc_start" || k.node.type === "heredoc_body")
        continue;
      if (k.node.type === "pipeline") tail.pipeTo.push(...named(k.node).map(reader.statement));
      else if (k.field === "right" || (k.node.isNamed && isStatementType(k.node.type)))
        tail.after.push(reader.statement(k.node));
    }
    const redirect: Redirect = { op, heredoc: { text: body?.text ?? "", expands, parts } };
    if (fd !== undefined) redirect.fd = fd;
    return redirect;
  }

  /** Redirections of one redirect node; extra words after the first destination are arguments. */
  function redirects(node: SyntaxNode, extraWords: ShellWord[], tail: Tail, nested: Redirect[]): Redirect[] {
    if (node.type === "heredoc_redirect") {
      const kids = children(node);
      // `rm <<E -rf ~/.ssh`: bash hands the words after the delimiter to the command.
      extraWords.push(...argumentWords(kids).values());
      for (const k of kids)
        if (k.field === "redirect") nested.push(...redirects(k.node, extraWords, tail, nested));
      return [heredoc(node, tail)];
    }
    const kids = children(node);
    const fd = kids.find((k) => k.field === "descriptor")?.node.text;
    const op = kids.find((k) => !k.node.isNamed && /^[<>&]/.test(k.node.type))?.node.type;
    if (node.type === "herestring_redirect") {
      const target = named(node).filter((c) => c.type !== "file_descriptor");
      const r: Redirect = { op: "<<<" };
      if (target[0] !== undefined) r.target = word(target[0]);
      if (fd !== undefined) r.fd = fd;
      return [r];
    }
    if (node.type !== "file_redirect") return fail(`a ${node.type} redirection: ${short(node.text)}`);
    if (op === undefined) return fail(`a redirection without an operator: ${short(node.text)}`);
    const destinations = kids.filter((k) => k.field === "destination").map((k) => k.node);
    // `echo a >f b`: bash hands `b` to echo; tree-sitter-bash lists it as a second destination.
    for (const extra of destinations.slice(1)) extraWords.push(word(extra));
    const r: Redirect = { op };
    if (destinations[0] !== undefined) r.target = word(destinations[0]);
    if (fd !== undefined) r.fd = fd;
    return [r];
  }

  return { redirects };
}
