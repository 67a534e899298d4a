import { scriptReader } from "../../src/core/commands/setup.js";
import type { ShellWord, Statement, WordPart } from "../../src/core/shell/script-model.js";
import { KIT } from "./commands.js";

// The pieces the shell reader's tests build whole readings from.

const read = scriptReader(KIT.parser);

/** The statement the shell reader makes of `text`; throws with its reason when it refuses. */
export function script(text: string): Statement {
  const r = read(text);
  if (!r.ok) throw new Error(r.why);
  return r.script;
}

export const txt = (text: string, quoted = false): WordPart => ({ kind: "text", text, quoted });

/** A word that starts at `start`, with its parts (by default: its source, unquoted). */
export const w = (source: string, start: number, parts: WordPart[] = [txt(source)]): ShellWord => ({
  source,
  parts,
  start,
  end: start + source.length,
});
