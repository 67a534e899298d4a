// TOML (Codex): smol-toml cannot write comments back, so the editor finds the one
// `[mcp_servers.NAME]` table by its header line and changes its `command` / `args` lines as
// text. It never adds a table; the result is re-parsed and compared by the planner.
import { parse } from "smol-toml";
import { type Editor, type EntryView, eolOf, lineEnd, type SeqView, separatorFor, type Tok } from "./view.js";

const BARE = /^[A-Za-z0-9_-]+$/;

/** Header line regex source for `[mcp_servers.<name>]`, in any of TOML's key spellings. */
function headerMatches(line: string, table: string, name: string): boolean {
  const m = /^[ \t]*\[(?!\[)([^\]]*)\][ \t]*(#.*)?$/.exec(line);
  if (!m) return false;
  try {
    const probe = parse(`[${m[1] ?? ""}]\n__probe__ = 1`) as Record<string, unknown>;
    const t = probe[table] as Record<string, unknown> | undefined;
    const keys = t ? Object.keys(t) : [];
    const inner = t?.[name] as Record<string, unknown> | undefined;
    return Object.keys(probe).length === 1 && keys.length === 1 && keys[0] === name && inner?.__probe__ === 1;
  } catch {
    return false;
  }
}

/** Reads a basic or literal single-line string starting at `i`. */
function readString(text: string, i: number): Tok | undefined {
  const q = text[i];
  if (q !== '"' && q !== "'") return undefined;
  if (text.startsWith(q.repeat(3), i)) return undefined; // multi-line strings: not edited
  let j = i + 1;
  while (j < text.length && text[j] !== q && text[j] !== "\n") j += q === '"' && text[j] === "\\" ? 2 : 1;
  if (text[j] !== q) return undefined;
  const raw = text.slice(i, j + 1);
  try {
    const value = (parse(`v = ${raw}`) as { v: unknown }).v;
    return typeof value === "string" ? { start: i, end: j + 1, value, raw } : undefined;
  } catch {
    return undefined;
  }
}

function readArray(text: string, open: number): SeqView | string {
  const items: Tok[] = [];
  let i = open + 1;
  for (;;) {
    const c = text[i];
    if (c === undefined) return "unterminated list";
    if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === ",") i++;
    else if (c === "#") i = lineEnd(text, i);
    else if (c === "]") break;
    else {
      const t = readString(text, i);
      if (!t) return "expected a list of single-line strings";
      items.push(t);
      i = t.end;
    }
  }
  return { items, emptyAt: open + 1, sep: separatorFor(text, open + 1, items) };
}

export const tomlEditor: Editor = {
  quote: (v) => JSON.stringify(v),
  locate(body, at): EntryView | string {
    const [table, name] = at;
    if (typeof table !== "string" || typeof name !== "string" || at.length !== 2)
      return "unexpected location";
    const lines = body.split("\n");
    let offset = 0;
    let start = -1;
    let end = body.length;
    for (const line of lines) {
      if (start === -1 && headerMatches(line.replace(/\r$/, ""), table, name))
        start = offset + line.length + 1;
      else if (start !== -1 && /^[ \t]*\[/.test(line)) {
        end = offset;
        break;
      }
      offset += line.length + 1;
    }
    if (start === -1) {
      return `not written as a [${table}.${BARE.test(name) ? name : JSON.stringify(name)}] table (inline tables are left alone)`;
    }
    const section = body.slice(0, end);
    const view: EntryView = { asItem: (t) => t.raw };
    const cmd = /^[ \t]*command[ \t]*=[ \t]*/m;
    const argsRe = /^[ \t]*args[ \t]*=[ \t]*/m;
    const cm = cmd.exec(section.slice(start));
    if (cm) {
      const at0 = start + cm.index + cm[0].length;
      const t = readString(section, at0);
      if (!t) return "command: expected a single-line string";
      view.command = t;
      const indent = /^[ \t]*/.exec(cm[0])?.[0] ?? "";
      const eol = eolOf(body);
      view.argsInsert = {
        at: lineEnd(body, t.end),
        make: (raws) => `${eol}${indent}args = [${raws.join(", ")}]`,
      };
    }
    const am = argsRe.exec(section.slice(start));
    if (am) {
      const open = start + am.index + am[0].length;
      if (section[open] !== "[") return "args: expected a list";
      const s = readArray(section, open);
      if (typeof s === "string") return `args: ${s}`;
      view.args = s;
    }
    return view;
  },
};
