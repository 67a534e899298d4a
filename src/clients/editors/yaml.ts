// YAML (Continue): the yaml package's Document keeps source ranges for every node, so the editor
// works on those offsets and leaves every other byte (comments, quoting, indentation) alone.
import { isMap, isScalar, isSeq, parseDocument, type Scalar, type YAMLSeq } from "yaml";
import { type Editor, type EntryView, eolOf, lineEnd, type SeqView, separatorFor, type Tok } from "./view.js";

function tok(body: string, node: unknown): Tok | undefined {
  if (!isScalar(node) || typeof node.value !== "string" || !node.range) return undefined;
  const s = node as Scalar<string>;
  if (s.type === "BLOCK_LITERAL" || s.type === "BLOCK_FOLDED") return undefined;
  const [start, end] = node.range;
  return { start, end, value: s.value, raw: body.slice(start, end) };
}

function column(body: string, offset: number): number {
  return offset - (body.lastIndexOf("\n", offset - 1) + 1);
}

function seq(body: string, node: YAMLSeq): SeqView | string {
  const items: Tok[] = [];
  for (const item of node.items) {
    const t = tok(body, item);
    if (!t) return "expected a list of strings";
    items.push(t);
  }
  const open = (node.range?.[0] ?? 0) + 1;
  if (node.flow) return { items, emptyAt: open, sep: separatorFor(body, open, items) };
  const first = items[0];
  if (!first) return "empty block list";
  // The first item's own `- `: the sequence starts there; else the last hyphen before the item's
  // text (never the item's own first character, which may be a hyphen too: `- -y`).
  const start = node.range?.[0];
  const dash = start !== undefined && body[start] === "-" ? start : body.lastIndexOf("-", first.start - 1);
  return { items, emptyAt: first.start, sep: `${eolOf(body)}${" ".repeat(column(body, dash))}- ` };
}

const FLOW_UNSAFE = /[,[\]{}#]/;

export const yamlEditor: Editor = {
  quote: (v) => JSON.stringify(v),
  locate(body, at): EntryView | string {
    const doc = parseDocument(body);
    if (doc.errors.length > 0) return "the file does not parse";
    const entry = doc.getIn(at, true);
    if (!isMap(entry)) return "the declaration is not a mapping";
    let flowArgs = false;
    const view: EntryView = {
      asItem: (t, s) =>
        (s === undefined || flowArgs) && /^[^"']/.test(t.raw) && FLOW_UNSAFE.test(t.raw)
          ? JSON.stringify(t.value)
          : t.raw,
    };
    for (const pair of entry.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (key === "command") {
        const t = tok(body, pair.value);
        if (!t) return "command: expected a one-line string";
        view.command = t;
        const keyStart = isScalar(pair.key) ? (pair.key.range?.[0] ?? t.start) : t.start;
        const indent = " ".repeat(column(body, keyStart));
        view.argsInsert = {
          at: lineEnd(body, t.end),
          make: (raws) => `${eolOf(body)}${indent}args: [${raws.join(", ")}]`,
        };
      } else if (key === "args") {
        if (!isSeq(pair.value)) return "args: expected a list";
        const s = seq(body, pair.value);
        if (typeof s === "string") return `args: ${s}`;
        flowArgs = pair.value.flow === true;
        view.args = s;
      }
    }
    return view;
  },
};
