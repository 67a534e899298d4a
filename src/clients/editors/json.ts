// JSON and JSONC: jsonc-parser's syntax tree gives exact offsets of every value, comments and all.
import { findNodeAtLocation, type Node, type ParseError, parseTree } from "jsonc-parser";
import {
  type Editor,
  type EntryView,
  eolOf,
  leadingIndent,
  type SeqView,
  separatorFor,
  type Tok,
} from "./view.js";

function tok(body: string, n: Node): Tok | undefined {
  if (n.type !== "string" || typeof n.value !== "string") return undefined;
  return {
    start: n.offset,
    end: n.offset + n.length,
    value: n.value,
    raw: body.slice(n.offset, n.offset + n.length),
  };
}

function seq(body: string, n: Node): SeqView | string {
  if (n.type !== "array") return "expected a list";
  const items: Tok[] = [];
  for (const child of n.children ?? []) {
    const t = tok(body, child);
    if (!t) return "expected a list of strings";
    items.push(t);
  }
  return { items, emptyAt: n.offset + 1, sep: separatorFor(body, n.offset + 1, items) };
}

export const jsonEditor: Editor = {
  quote: (v) => JSON.stringify(v),
  locate(body, at): EntryView | string {
    const errors: ParseError[] = [];
    const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
    if (!root || errors.length > 0) return "the file does not parse";
    const entry = findNodeAtLocation(root, at);
    if (!entry || entry.type !== "object") return "the declaration is not an object";
    const view: EntryView = { asItem: (t) => t.raw };
    for (const prop of entry.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (!key || !value) continue;
      if (key.value === "command") {
        if (value.type === "array") {
          const s = seq(body, value);
          if (typeof s === "string") return `command: ${s}`;
          view.argv = s;
        } else {
          const t = tok(body, value);
          if (!t) return "command: expected a string";
          view.command = t;
          const indent = leadingIndent(body, key.offset);
          const eol = eolOf(body);
          view.argsInsert = {
            at: t.end,
            make: (raws) =>
              indent === undefined
                ? `, "args": [${raws.join(", ")}]`
                : `,${eol}${indent}"args": [${raws.join(", ")}]`,
          };
        }
      } else if (key.value === "args") {
        const s = seq(body, value);
        if (typeof s === "string") return `args: ${s}`;
        view.args = s;
      }
    }
    return view;
  },
};
