// TOML (Codex): smol-toml cannot write comments back, so the editor locates the `command` string
// and the `args` list of one server as byte ranges, whatever the spelling: a `[mcp_servers.NAME]`
// table, dotted keys (`NAME.command = …`), or inline tables (`NAME = { command = … }`).
// A token is located by probing (decision 0045): replace a candidate with a unique marker, parse
// with smol-toml, and accept it only if exactly that server's key now holds the marker. Nothing
// is trusted from the scan alone, and the planner re-parses the edited file on top.
import { randomBytes } from "node:crypto";
import { parse } from "smol-toml";
import { type Editor, type EntryView, eolOf, lineEnd, type SeqView, separatorFor, type Tok } from "./view.js";

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

function readArray(text: string, open: number): (SeqView & { end: number }) | undefined {
  const items: Tok[] = [];
  let i = open + 1;
  for (;;) {
    const c = text[i];
    if (c === undefined) return undefined;
    if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === ",") i++;
    else if (c === "#") i = lineEnd(text, i);
    else if (c === "]") break;
    else {
      const t = readString(text, i);
      if (!t) return undefined;
      items.push(t);
      i = t.end;
    }
  }
  return { items, emptyAt: open + 1, sep: separatorFor(text, open + 1, items), end: i + 1 };
}

function valueAt(doc: unknown, at: readonly (string | number)[]): unknown {
  let cur = doc;
  for (const k of at)
    cur = typeof cur === "object" && cur !== null ? (cur as Record<string, unknown>)[k as string] : undefined;
  return cur;
}

/** Does replacing [start, end) with `replacement` put `want` at `at`, and parse? */
function probe(
  body: string,
  start: number,
  end: number,
  replacement: string,
  at: readonly (string | number)[],
  want: (v: unknown) => boolean,
): boolean {
  try {
    return want(valueAt(parse(body.slice(0, start) + replacement + body.slice(end)), at));
  } catch {
    return false;
  }
}

/** Where a key = value pair's key starts, and what precedes it: a line start, or `{` / `,`. */
function keyBefore(
  body: string,
  valueStart: number,
): { key: string; inline: boolean; indent: string } | undefined {
  const lineStart = body.lastIndexOf("\n", valueStart - 1) + 1;
  const m = /(^|[{,])([ \t]*)([A-Za-z0-9_.\-"' \t]*?)[ \t]*=[ \t]*$/.exec(body.slice(lineStart, valueStart));
  if (!m) return undefined;
  return { key: m[3] ?? "", inline: (m[1] ?? "") !== "", indent: m[2] ?? "" };
}

export const tomlEditor: Editor = {
  quote: (v) => JSON.stringify(v),
  locate(body, at): EntryView | string {
    let doc: unknown;
    try {
      doc = parse(body);
    } catch {
      return "the file does not parse";
    }
    const entry = valueAt(doc, at);
    if (typeof entry !== "object" || entry === null) return "the declaration is not a table";
    const { command, args } = entry as Record<string, unknown>;
    let marker = `effectgate-probe-${randomBytes(6).toString("hex")}`;
    while (body.includes(marker)) marker += "x";
    const view: EntryView = { asItem: (t) => t.raw };

    if (typeof command === "string") {
      for (let i = 0; i < body.length; i++) {
        const c = body[i];
        if (c !== '"' && c !== "'") continue;
        const t = readString(body, i);
        if (!t) continue;
        i = t.end - 1;
        if (t.value !== command) continue;
        if (!probe(body, t.start, t.end, JSON.stringify(marker), [...at, "command"], (v) => v === marker))
          continue;
        view.command = t;
        const k = keyBefore(body, t.start);
        if (!k || !/(^|\.)command$/.test(k.key.trim())) return "command: cannot tell how its key is written";
        const prefix = k.key.trim().replace(/command$/, "");
        view.argsInsert = k.inline
          ? { at: t.end, make: (raws) => `, ${prefix}args = [${raws.join(", ")}]` }
          : {
              at: lineEnd(body, t.end),
              make: (raws) => `${eolOf(body)}${k.indent}${prefix}args = [${raws.join(", ")}]`,
            };
        break;
      }
      if (!view.command) return "command: expected a single-line string";
    }
    if (Array.isArray(args)) {
      const want = JSON.stringify(args);
      for (let i = body.indexOf("["); i !== -1; i = body.indexOf("[", i + 1)) {
        const s = readArray(body, i);
        if (!s || JSON.stringify(s.items.map((t) => t.value)) !== want) continue;
        const hit = probe(
          body,
          i,
          s.end,
          `[${JSON.stringify(marker)}]`,
          [...at, "args"],
          (v) => Array.isArray(v) && v.length === 1 && v[0] === marker,
        );
        if (!hit) continue;
        view.args = s;
        break;
      }
      if (!view.args) return "args: expected a list of single-line strings";
    }
    return view;
  },
};
