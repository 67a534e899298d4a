// The byte ranges an editor finds inside one server declaration, and the text edits that wrap or
// unwrap it. Editors only locate; the edits are the same for every format, which is what makes
// uninstall the exact inverse of install: install inserts in front of the first list item,
// uninstall deletes from the first item up to the first original one.

/** A string scalar as written in the file. */
export interface Tok {
  start: number;
  end: number;
  value: string;
  raw: string;
}

/** A list of string scalars (JSON array, TOML array, YAML sequence). */
export interface SeqView {
  items: Tok[];
  /** Where to insert into an empty list. */
  emptyAt: number;
  /** Text placed between inserted items, matching the list's style. */
  sep: string;
}

export interface EntryView {
  command?: Tok;
  args?: SeqView;
  /** Adds an args list next to the command when there is none; make() must be deterministic. */
  argsInsert?: { at: number; make(raws: string[]): string };
  /** opencode: the whole argv as one list. */
  argv?: SeqView;
  /** A command token as it should appear inside `seq` (YAML flow lists need quoting more often). */
  asItem(tok: Tok, seq: SeqView | undefined): string;
}

export interface Editor {
  /** Finds the declaration at `at` in `body` (no BOM), or says why it cannot be edited. */
  locate(body: string, at: (string | number)[]): EntryView | string;
  /** A string literal in this format. */
  quote(value: string): string;
}

export interface Edit {
  offset: number;
  length: number;
  text: string;
}

export function applyTextEdits(body: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.offset - a.offset || b.length - a.length);
  let out = body;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.offset + e.length > limit) throw new Error(`overlapping edits at offset ${e.offset}`);
    out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
    limit = e.offset;
  }
  return out;
}

export function insertFront(seq: SeqView, raws: string[]): Edit {
  const first = seq.items[0];
  if (!first) return { offset: seq.emptyAt, length: 0, text: raws.join(seq.sep) };
  return { offset: first.start, length: 0, text: raws.join(seq.sep) + seq.sep };
}

/** Deletes the first `count` items (count ≥ 1), keeping the list's own layout. */
export function deleteFront(seq: SeqView, count: number): Edit {
  const first = seq.items[0] as Tok;
  const next = seq.items[count];
  if (next) return { offset: first.start, length: next.start - first.start, text: "" };
  const last = seq.items[seq.items.length - 1] as Tok;
  return { offset: first.start, length: last.end - first.start, text: "" };
}

export function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** Offset of the end of the line holding `offset` (before its EOL). */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  if (nl === -1) return text.length;
  return nl > 0 && text[nl - 1] === "\r" ? nl - 1 : nl;
}

/** Whitespace before `offset` on its line, or undefined when something else precedes it. */
export function leadingIndent(text: string, offset: number): string | undefined {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** A separator for inserting items: the list's own `, ` / `,\n    ` when it has one. */
export function separatorFor(text: string, openEnd: number, items: Tok[]): string {
  const [a, b] = items;
  if (a && b) {
    const between = text.slice(a.end, b.start);
    if (/^[ \t]*,\s*$/.test(between)) return between;
  }
  if (a) {
    const lead = text.slice(openEnd, a.start);
    if (/^\s*$/.test(lead) && lead.includes("\n"))
      return `,${eolOf(text)}${lead.slice(lead.lastIndexOf("\n") + 1)}`;
  }
  return ", ";
}
