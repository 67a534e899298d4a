import { ansiC } from "./ansi-c.js";
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

class Unreadable extends Error {}

const fail = (why: string): never => {
  throw new Unreadable(why);
};

function children(n: SyntaxNode): Array<{ node: SyntaxNode; field: string | null }> {
  const out: Array<{ node: SyntaxNode; field: string | null }> = [];
  for (let i = 0; i < n.childCount; i++) {
    const c = n.child(i);
    if (c !== null) out.push({ node: c, field: n.fieldNameForChild(i) });
  }
  return out;
}

const named = (n: SyntaxNode): SyntaxNode[] =>
  children(n)
    .map((c) => c.node)
    .filter((c) => c.isNamed && c.type !== "comment");

const short = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** `\x` outside quotes is `x`; an escaped line break joins the lines. */
function unescapeBare(text: string): string {
  return text.replace(/\\([\s\S])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and a line break. */
function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** The variable name and the operator text of `$X`, `${X}`, `${X:-w}`, `${#X}`, `${!X}`, `${X[0]}`. */
function variableOf(node: SyntaxNode): { name: string; op: string } {
  if (node.type === "simple_expansion") return { name: node.text.slice(1), op: "" };
  const inner = node.text.slice(2, -1);
  const m = /^([#!]?)([A-Za-z_]\w*|[0-9@*#?$!-])([\s\S]*)$/.exec(inner);
  if (m === null) return { name: "", op: inner };
  return { name: m[2] as string, op: `${m[1] as string}${m[3] as string}` };
}

function expansionPart(node: SyntaxNode, quoted: boolean): WordPart {
  const { name, op } = variableOf(node);
  return { kind: "var", name, op, source: node.text, quoted };
}

/** The parts of a word-like node, in order. */
function wordParts(node: SyntaxNode, quoted = false): WordPart[] {
  switch (node.type) {
    case "word":
    case "number":
    case "extglob_pattern":
    case "regex":
    case "test_operator":
    case "special_variable_name":
    case "variable_name":
    case "heredoc_content":
      return [{ kind: "text", text: quoted ? unescapeDouble(node.text) : unescapeBare(node.text), quoted }];
    case "string_content":
      return [{ kind: "text", text: unescapeDouble(node.text), quoted: true }];
    case "raw_string":
      return [{ kind: "text", text: node.text.slice(1, -1), quoted: true }];
    case "ansi_c_string":
      return [{ kind: "text", text: ansiC(node.text, 2).decoded, quoted: true }];
    case "brace_expression":
      return [{ kind: "text", text: node.text, quoted }];
    case "simple_expansion":
    case "expansion":
      return [expansionPart(node, quoted)];
    case "command_substitution":
      return [{ kind: "subst", body: sequence(named(node)), source: node.text }];
    case "process_substitution":
      return [
        {
          kind: "procsub",
          output: node.text.startsWith(">"),
          body: sequence(named(node)),
          source: node.text,
        },
      ];
    case "arithmetic_expansion":
      return [{ kind: "arith", inner: substitutionsIn(node), source: node.text }];
    case "string":
    case "translated_string":
      return stringParts(node);
    case "concatenation":
      return concatenationParts(node, quoted);
    default:
      return fail(`a ${node.type} in the word ${short(node.text)}`);
  }
}

/**
 * A double-quoted string's parts. Text between the named children (kept by tree-sitter as
 * anonymous tokens, e.g. a `$` that starts nothing) belongs to the string too.
 */
function stringParts(node: SyntaxNode): WordPart[] {
  const text = node.text;
  const open = text.startsWith("$") ? 2 : 1;
  const parts: WordPart[] = [];
  let at = node.startIndex + open;
  const end = node.endIndex - 1;
  const gap = (upTo: number) => {
    if (upTo > at)
      parts.push({
        kind: "text",
        text: unescapeDouble(text.slice(at - node.startIndex, upTo - node.startIndex)),
        quoted: true,
      });
  };
  for (const { node: c } of children(node)) {
    if (!c.isNamed) continue;
    if (c.type === "string") {
      // `$"…"` inside tree-sitter's translated_string: the inner string is the whole content.
      parts.push(...stringParts(c));
      at = c.endIndex;
      continue;
    }
    gap(c.startIndex);
    parts.push(...wordParts(c, true));
    at = c.endIndex;
  }
  gap(end);
  return parts;
}

function concatenationParts(node: SyntaxNode, quoted: boolean): WordPart[] {
  const parts: WordPart[] = [];
  let at = node.startIndex;
  for (const { node: c } of children(node)) {
    // Pieces must touch: a gap would be text the tree does not show.
    if (c.startIndex !== at) fail(`an unread piece in the word ${short(node.text)}`);
    parts.push(...(c.isNamed ? wordParts(c, quoted) : [{ kind: "text" as const, text: c.text, quoted }]));
    at = c.endIndex;
  }
  if (at !== node.endIndex) fail(`an unread piece in the word ${short(node.text)}`);
  return parts;
}

function word(node: SyntaxNode): ShellWord {
  if (node.type === "command_name") {
    const inner = named(node);
    if (inner.length !== 1) fail(`a program name of ${inner.length} parts: ${short(node.text)}`);
    return word(inner[0] as SyntaxNode);
  }
  return { source: node.text, parts: wordParts(node), start: node.startIndex, end: node.endIndex };
}

/**
 * tree-sitter-bash ends a word at a backslash that follows a quote (`a'b'\c`, `~/.b'a'\shrc`)
 * and starts another one right there: to bash that is one word. A word that starts where the
 * previous word (or redirection target) ends is joined to it.
 */
function joinAdjacent(cmd: SimpleCommand): void {
  const targets = cmd.redirects.flatMap((r) => (r.target === undefined ? [] : [r.target]));
  const all = [...cmd.words, ...targets]
    .filter((w) => w.start !== undefined)
    .sort((a, b) => (a.start as number) - (b.start as number));
  const drop = new Set<ShellWord>();
  let last: ShellWord | undefined;
  for (const w of all) {
    if (last !== undefined && w.start === last.end && cmd.words.includes(w)) {
      last.parts.push(...w.parts);
      last.source += w.source;
      last.end = w.end;
      drop.add(w);
      continue;
    }
    last = w;
  }
  if (drop.size > 0) cmd.words = cmd.words.filter((w) => !drop.has(w));
}

/** The statements inside any node: command substitutions in tests, arithmetic, case values. */
function substitutionsIn(node: SyntaxNode): Statement[] {
  const out: Statement[] = [];
  const walk = (n: SyntaxNode) => {
    if (n.type === "command_substitution" || n.type === "process_substitution") {
      out.push(sequence(named(n)));
      return;
    }
    for (const c of named(n)) walk(c);
  };
  walk(node);
  return out;
}

function assignment(node: SyntaxNode): Assignment {
  const kids = children(node);
  const nameNode = kids.find((k) => k.field === "name")?.node;
  if (nameNode === undefined) return fail(`an assignment without a name: ${short(node.text)}`);
  const valueNode = kids.find((k) => k.field === "value")?.node;
  const append = kids.some((k) => !k.node.isNamed && k.node.type === "+=");
  // `a[1]=x`: a subscript name; the variable is what stands before the bracket.
  const name = nameNode.type === "subscript" ? nameNode.text.replace(/\[[\s\S]*$/, "") : nameNode.text;
  if (valueNode === undefined) return { name, value: { source: "", parts: [] }, append };
  if (valueNode.type === "array") {
    const elements = named(valueNode).map(word);
    return { name, elements, append };
  }
  return { name, value: word(valueNode), append };
}

/** What tree-sitter-bash hangs under a here-document: the rest of its pipeline, and what follows it. */
interface Tail {
  pipeTo: Statement[];
  after: Statement[];
}

const newTail = (): Tail => ({ pipeTo: [], after: [] });

/** `stmt` with what hung under its here-documents put back in place. */
function withTail(stmt: Statement, tail: Tail, source: string): Statement {
  const piped: Statement =
    tail.pipeTo.length === 0 ? stmt : { kind: "pipeline", stages: [stmt, ...tail.pipeTo], source };
  return tail.after.length === 0 ? piped : { kind: "sequence", items: [piped, ...tail.after] };
}

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
    if (k.field === "redirect" || k.node.type === "heredoc_start" || k.node.type === "heredoc_body") continue;
    if (k.node.type === "pipeline") tail.pipeTo.push(...named(k.node).map(statement));
    else if (k.field === "right" || (k.node.isNamed && isStatementType(k.node.type)))
      tail.after.push(statement(k.node));
  }
  const redirect: Redirect = { op, heredoc: { text: body?.text ?? "", expands, parts } };
  if (fd !== undefined) redirect.fd = fd;
  return redirect;
}

/** Redirections of one redirect node; extra words after the first destination are arguments. */
function redirects(node: SyntaxNode, extraWords: ShellWord[], tail: Tail, nested: Redirect[]): Redirect[] {
  if (node.type === "heredoc_redirect") {
    for (const k of children(node))
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

const isStatementType = (t: string): boolean => STATEMENTS.has(t);

function simple(source: string): SimpleCommand {
  return { kind: "simple", source, assigns: [], words: [], declares: [], redirects: [] };
}

function command(node: SyntaxNode): Statement {
  const out = simple(node.text);
  const tail = newTail();
  const extra: ShellWord[] = [];
  for (const { node: c, field } of children(node)) {
    if (!c.isNamed || c.type === "comment") continue;
    if (field === "name") out.words.unshift(word(c));
    else if (field === "argument") out.words.push(word(c));
    else if (field === "redirect") out.redirects.push(...redirects(c, extra, tail, out.redirects));
    else if (c.type === "variable_assignment") out.assigns.push(assignment(c));
    else if (c.type === "herestring_redirect" || c.type === "file_redirect" || c.type === "heredoc_redirect")
      out.redirects.push(...redirects(c, extra, tail, out.redirects));
    else fail(`a ${c.type} in the command ${short(node.text)}`);
  }
  out.words.push(...extra);
  joinAdjacent(out);
  return withTail(out, tail, node.text);
}

function declaration(node: SyntaxNode): SimpleCommand {
  const out = simple(node.text);
  for (const { node: c } of children(node)) {
    if (c.type === "comment") continue;
    if (!c.isNamed) {
      // The builtin itself (`export`, `declare`, …) is an anonymous token.
      if (/^[a-z]+$/.test(c.type))
        out.words.push({ source: c.text, parts: [{ kind: "text", text: c.text, quoted: false }] });
      continue;
    }
    if (c.type === "variable_assignment") {
      out.declares.push(assignment(c));
      out.words.push({ source: c.text, parts: [{ kind: "text", text: c.text, quoted: true }] });
    } else if (c.type === "variable_name") {
      out.declares.push({ name: c.text, append: false });
      out.words.push(word(c));
    } else out.words.push(word(c));
  }
  return out;
}

/** Redirections of a statement that is not a simple command, and the words tree-sitter put in them. */
function redirected(node: SyntaxNode): Statement {
  const kids = children(node);
  const bodyNode = kids.find((k) => k.field === "body")?.node;
  const tail = newTail();
  const extra: ShellWord[] = [];
  const rs: Redirect[] = [];
  for (const k of kids) {
    if (k.field === "body" || !k.node.isNamed || k.node.type === "comment") continue;
    rs.push(...redirects(k.node, extra, tail, rs));
  }
  let result: Statement;
  const body = bodyNode === undefined ? simple(node.text) : statement(bodyNode);
  // `cd ~ && echo x >> .bashrc`: bash redirects only the last command of the list; tree-sitter-bash
  // hangs the redirection on the whole list. It is put back on the last command.
  if (bodyNode?.type === "list") {
    const last = lastCommand(body);
    if (last !== undefined) {
      last.redirects.push(...rs);
      last.words.push(...extra);
      joinAdjacent(last);
      return withTail(body, tail, node.text);
    }
  }
  if (body.kind === "simple") {
    body.redirects.push(...rs);
    body.words.push(...extra);
    body.source = node.text;
    joinAdjacent(body);
    result = body;
  } else {
    // Words that are really arguments of a compound statement's last command: keep them as a
    // command of their own, so that nothing they name goes unread.
    const items: Statement[] = [body];
    if (extra.length > 0) items.push({ ...simple(node.text), words: extra });
    result = {
      kind: "group",
      subshell: false,
      body: items.length === 1 ? body : { kind: "sequence", items },
      redirects: rs,
      source: node.text,
    };
  }
  return withTail(result, tail, node.text);
}

/** The simple command a list ends with (through nested lists), if it ends with one. */
function lastCommand(s: Statement): SimpleCommand | undefined {
  if (s.kind === "simple") return s;
  if (s.kind === "sequence") {
    const last = s.items[s.items.length - 1];
    return last === undefined ? undefined : lastCommand(last);
  }
  return undefined;
}

function sequence(nodes: SyntaxNode[]): Statement {
  const items = nodes.filter((n) => n.type !== "comment").map(statement);
  return items.length === 1 ? (items[0] as Statement) : { kind: "sequence", items };
}

/**
 * `a && b && c` parses as lists nested to the left, one level per operator. Read them flat, so
 * that a chain of thousands cannot exhaust the stack: the judge must still give a verdict.
 */
function flattenLists(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const todo: SyntaxNode[] = [node];
  for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
    if (n.type !== "list") out.push(n);
    else todo.push(...named(n).reverse());
  }
  return out;
}

function statement(node: SyntaxNode): Statement {
  switch (node.type) {
    case "command":
      return command(node);
    case "declaration_command":
    case "unset_command":
      return declaration(node);
    case "variable_assignment": {
      const s = simple(node.text);
      s.assigns.push(assignment(node));
      return s;
    }
    case "variable_assignments": {
      const s = simple(node.text);
      for (const c of named(node)) s.assigns.push(assignment(c));
      return s;
    }
    case "redirected_statement":
      return redirected(node);
    case "pipeline":
      return { kind: "pipeline", stages: named(node).map(statement), source: node.text };
    case "list":
      return sequence(flattenLists(node));
    case "program":
    case "do_group":
    case "else_clause":
    case "elif_clause":
      return sequence(named(node));
    case "negated_command":
      return sequence(named(node));
    case "subshell":
      return { kind: "group", subshell: true, body: sequence(named(node)), redirects: [], source: node.text };
    case "compound_statement":
      return {
        kind: "group",
        subshell: false,
        body: sequence(named(node)),
        redirects: [],
        source: node.text,
      };
    case "if_statement":
    case "while_statement":
      return sequence(named(node));
    case "case_statement": {
      const items: Statement[] = [];
      for (const { node: c, field } of children(node)) {
        if (field === "value") items.push({ kind: "test", words: [word(c)] });
        else if (c.type === "case_item")
          for (const { node: k, field: f } of children(c)) {
            if (f === "value") items.push({ kind: "test", words: [word(k)] });
            else if (k.isNamed && isStatementType(k.type)) items.push(statement(k));
          }
      }
      return { kind: "sequence", items };
    }
    case "for_statement": {
      const kids = children(node);
      const variable = kids.find((k) => k.field === "variable")?.node.text;
      const values = kids.filter((k) => k.field === "value").map((k) => word(k.node));
      const bodyNode = kids.find((k) => k.field === "body")?.node;
      const body = bodyNode === undefined ? sequence([]) : statement(bodyNode);
      const loop: Statement = { kind: "for", body, source: node.text };
      if (variable !== undefined) loop.variable = variable;
      // `for x; do` runs over "$@", which nothing here knows.
      if (kids.some((k) => !k.node.isNamed && k.node.type === "in")) loop.values = values;
      return loop;
    }
    case "c_style_for_statement": {
      const kids = children(node);
      const bodyNode = kids.find((k) => k.field === "body")?.node;
      const inner = kids.filter((k) => k.field !== "body").flatMap((k) => substitutionsIn(k.node));
      return {
        kind: "sequence",
        items: [...inner, bodyNode === undefined ? sequence([]) : statement(bodyNode)],
      };
    }
    case "function_definition": {
      const kids = children(node);
      const name = kids.find((k) => k.field === "name")?.node.text ?? "";
      const bodyNode = kids.find((k) => k.field === "body")?.node;
      if (bodyNode === undefined) return fail(`a function without a body: ${short(node.text)}`);
      const rs: Redirect[] = [];
      for (const k of kids) if (k.field === "redirect") rs.push(...redirects(k.node, [], newTail(), rs));
      const body = statement(bodyNode);
      return {
        kind: "function",
        name,
        body:
          rs.length === 0 ? body : { kind: "group", subshell: false, body, redirects: rs, source: node.text },
        source: node.text,
      };
    }
    case "test_command":
      return { kind: "sequence", items: [{ kind: "test", words: [] }, ...substitutionsIn(node)] };
    default:
      return fail(`a ${node.type}: ${short(node.text)}`);
  }
}

/** The first place the tree says the text is not valid bash, if any. */
function firstError(n: SyntaxNode): SyntaxNode | undefined {
  if (n.type === "ERROR" || n.isMissing) return n;
  if (!n.hasError) return undefined;
  for (const { node } of children(n)) {
    const e = firstError(node);
    if (e !== undefined) return e;
  }
  return n;
}

/** The script of a parsed command string, or why it cannot be read. */
export function readScript(root: SyntaxNode): ScriptReading {
  const error = firstError(root);
  if (error !== undefined)
    return {
      ok: false,
      why: error.isMissing
        ? `the command is not complete bash (a missing ${error.type})`
        : `the command is not valid bash near ${short(error.text)}`,
    };
  try {
    return { ok: true, script: statement(root) };
  } catch (err) {
    if (err instanceof Unreadable) return { ok: false, why: `effectgate cannot read ${err.message}` };
    throw err;
  }
}
