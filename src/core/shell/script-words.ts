import { ansiC } from "./ansi-c.js";
import type {
  Assignment,
  ShellWord,
  SimpleCommand,
  Statement,
  StatementReader,
  WordPart,
} from "./script-model.js";
import type { SyntaxNode } from "./syntax.js";
import { children, fail, named, short } from "./syntax-walk.js";

// Words as bash hands them to a program: quotes and escapes removed, expansions kept as parts.

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
  // Braces let a positional parameter take several digits: `${10}` is the tenth.
  const m = /^([#!]?)([A-Za-z_]\w*|[0-9]+|[@*#?$!-])([\s\S]*)$/.exec(inner);
  if (m === null) return { name: "", op: inner };
  return { name: m[2] as string, op: `${m[1] as string}${m[3] as string}` };
}

function expansionPart(node: SyntaxNode, quoted: boolean): WordPart {
  const { name, op } = variableOf(node);
  return { kind: "var", name, op, source: node.text, quoted };
}

/**
 * tree-sitter-bash ends a word at a backslash that follows a quote (`a'b'\c`, `~/.b'a'\shrc`)
 * and starts another one right there: to bash that is one word. A word that starts where the
 * previous word (or redirection target) ends is joined to it.
 */
export function joinAdjacent(cmd: SimpleCommand): void {
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

/** The readers of words, given how to read the statements inside `$(…)` and `<(…)`. */
const translationMark = (c: SyntaxNode, next: SyntaxNode | undefined): boolean =>
  c.text === "$" && next !== undefined && next.startIndex === c.endIndex && next.text.startsWith('"');

export function wordReaders(reader: StatementReader) {
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
        return [{ kind: "subst", body: reader.sequence(named(node)), source: node.text }];
      case "process_substitution":
        return [
          {
            kind: "procsub",
            output: node.text.startsWith(">"),
            body: reader.sequence(named(node)),
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

  /** The statements inside any node: command substitutions in tests, arithmetic, case values. */
  function substitutionsIn(node: SyntaxNode): Statement[] {
    const out: Statement[] = [];
    const walk = (n: SyntaxNode) => {
      if (n.type === "command_substitution" || n.type === "process_substitution") {
        out.push(reader.sequence(named(n)));
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

  /**
   * The words of the children in `argument` fields (of a command, or of the here-document that
   * tree-sitter-bash hangs them under). The grammar gives `==`, `=~` and a bare `$` as anonymous
   * tokens, which bash passes on as they are, except the `$` of `$"…"`: it only marks the string.
   */
  function argumentWords(
    kids: Array<{ node: SyntaxNode; field: string | null }>,
  ): Map<SyntaxNode, ShellWord> {
    const out = new Map<SyntaxNode, ShellWord>();
    for (const [i, { node: c, field }] of kids.entries()) {
      if (field !== "argument") continue;
      if (c.isNamed) out.set(c, word(c));
      else if (!translationMark(c, kids[i + 1]?.node))
        out.set(c, {
          source: c.text,
          parts: [{ kind: "text", text: c.text, quoted: false }],
          start: c.startIndex,
          end: c.endIndex,
        });
    }
    return out;
  }

  return { word, argumentWords, wordParts, substitutionsIn, assignment };
}

export type WordReaders = ReturnType<typeof wordReaders>;
