import type { Redirect, ScriptReading, ShellWord, SimpleCommand, Statement } from "./script-model.js";
import { newTail, redirectReaders, withTail } from "./script-redirects.js";
import { joinAdjacent, wordReaders } from "./script-words.js";
import type { SyntaxNode } from "./syntax.js";
import { children, fail, isStatementType, named, short, Unreadable } from "./syntax-walk.js";

// The statements of a command string: simple commands, pipelines, lists, groups, loops, functions.
// The shapes are in script-model.ts; words and redirections have readers of their own, which call
// back here for the statements inside them.

const reader = { statement, sequence };
const words = wordReaders(reader);
const { word, argumentWords, substitutionsIn, assignment } = words;
const { redirects } = redirectReaders(words, reader);

function simple(source: string): SimpleCommand {
  return { kind: "simple", source, assigns: [], words: [], declares: [], redirects: [] };
}

function command(node: SyntaxNode): Statement {
  const out = simple(node.text);
  const tail = newTail();
  const extra: ShellWord[] = [];
  const kids = children(node);
  const args = argumentWords(kids);
  for (const { node: c, field } of kids) {
    if (field === "argument") {
      const w = args.get(c);
      if (w !== undefined) out.words.push(w);
    } else if (!c.isNamed || c.type === "comment") continue;
    else if (field === "name") out.words.unshift(word(c));
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
