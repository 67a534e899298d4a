// Wrap and unwrap as text edits over an EntryView. Install inserts the launcher in front of the
// first list item and moves the command token into the list; uninstall removes exactly that, so
// install followed by uninstall gives back the original bytes.
import {
  deleteFront,
  type Edit,
  type Editor,
  type EntryView,
  insertFront,
  type SeqView,
} from "./editors/view.js";
import type { PrefixWord } from "./relay-argv.js";
import type { CommandStyle } from "./types.js";

export interface Edited {
  edits: Edit[];
  /** Uninstall removed the args list that install had added. */
  argsRemoved: boolean;
  /** Install: the original's empty args list sits exactly where install would add one, so the
   *  wrapped text cannot tell uninstall that it was there; a memo must (decision 0044). */
  emptyArgs?: boolean;
  /** Uninstall: kept an empty args list because a memo said the original had it. */
  emptyArgsKept?: boolean;
}

export function wrapEdits(
  view: EntryView,
  style: CommandStyle,
  editor: Editor,
  prefix: string[],
  body: string,
): Edited | string {
  if (style === "argv-array") {
    if (!view.argv) return "no command list found";
    return { edits: [insertFront(view.argv, prefix.map(editor.quote))], argsRemoved: false };
  }
  const cmd = view.command;
  if (!cmd) return "no command found";
  const [program, ...rest] = prefix;
  if (program === undefined) return "empty launcher";
  const edits: Edit[] = [{ offset: cmd.start, length: cmd.end - cmd.start, text: editor.quote(program) }];
  const raws = [...rest.map(editor.quote), view.asItem(cmd, view.args)];
  if (view.args) edits.push(insertFront(view.args, raws));
  else if (view.argsInsert)
    edits.push({ offset: view.argsInsert.at, length: 0, text: view.argsInsert.make(raws) });
  else return "no place for args found";
  const insert = view.argsInsert;
  const emptyArgs =
    view.args?.items.length === 0 && insert !== undefined && body.startsWith(insert.make([]), insert.at);
  return { edits, argsRemoved: false, emptyArgs };
}

/** `dash` is the index of `--` in the full argv (program first). */
export function unwrapEdits(
  view: EntryView,
  style: CommandStyle,
  body: string,
  dash: number,
  hadEmptyArgs = false,
): Edited | string {
  if (style === "argv-array") {
    if (!view.argv) return "no command list found";
    return { edits: [deleteFront(view.argv, dash + 1)], argsRemoved: false };
  }
  const cmd = view.command;
  const args = view.args;
  if (!cmd || !args) return "no command and args found";
  const inner = args.items[dash]; // argv[dash + 1]
  if (!inner) return "nothing after --";
  const edits: Edit[] = [{ offset: cmd.start, length: cmd.end - cmd.start, text: inner.raw }];
  if (args.items.length > dash + 1)
    return { edits: [...edits, deleteFront(args, dash + 1)], argsRemoved: false };
  // No original args: if the list is exactly the one install added, remove it whole.
  const added = view.argsInsert?.make(args.items.map((t) => t.raw));
  const at = view.argsInsert?.at ?? -1;
  if (added !== undefined && body.slice(at, at + added.length) === added) {
    if (hadEmptyArgs)
      return { edits: [...edits, deleteFront(args, dash + 1)], argsRemoved: false, emptyArgsKept: true };
    return { edits: [...edits, { offset: at, length: added.length, text: "" }], argsRemoved: true };
  }
  return { edits: [...edits, deleteFront(args, dash + 1)], argsRemoved: false };
}

/**
 * Replaces the words in front of `--` (index `dash` in the full argv) with `prefix`, leaving `--`
 * and the original argv after it byte for byte. Words the prefix keeps from the old argv keep
 * their own spelling; only the launcher and option words that change are written anew.
 */
export function rewrapEdits(
  view: EntryView,
  style: CommandStyle,
  editor: Editor,
  dash: number,
  prefix: PrefixWord[],
): Edited | string {
  // Replaces list items [0, upto) with the given words, in the list's own layout.
  const splice = (seq: SeqView, upto: number, raws: string[]): Edit | string => {
    const first = seq.items[0];
    const end = seq.items[upto];
    if (!first || !end) return "no -- found in the list";
    const text = raws.length === 0 ? "" : raws.join(seq.sep) + seq.sep;
    return { offset: first.start, length: end.start - first.start, text };
  };
  if (style === "argv-array") {
    const argv = view.argv;
    if (!argv) return "no command list found";
    const raws = prefix.map(
      (w) => (w.from !== undefined ? argv.items[w.from]?.raw : undefined) ?? editor.quote(w.value),
    );
    const edit = splice(argv, dash, raws);
    return typeof edit === "string" ? edit : { edits: [edit], argsRemoved: false };
  }
  const cmd = view.command;
  const args = view.args;
  if (!cmd || !args) return "no command and args found";
  const [program, ...rest] = prefix;
  if (program === undefined) return "empty launcher";
  const edits: Edit[] = [];
  if (program.from !== 0)
    edits.push({ offset: cmd.start, length: cmd.end - cmd.start, text: editor.quote(program.value) });
  // argv[k] is args.items[k - 1]; a word that was the command is written anew inside the list.
  const raws = rest.map(
    (w) =>
      (w.from !== undefined && w.from > 0 ? args.items[w.from - 1]?.raw : undefined) ?? editor.quote(w.value),
  );
  const edit = splice(args, dash - 1, raws);
  return typeof edit === "string" ? edit : { edits: [...edits, edit], argsRemoved: false };
}
