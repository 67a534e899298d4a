import type { ShellWord, Statement } from "../shell/script-model.js";
import { wordReadings } from "../shell/word-readings.js";

/**
 * What a word of a parsed command stands for. Variables the command itself sets are replaced
 * by their values; others stay in `$NAME` form, for the word readings (set, unset, parents) and
 * the canonicaliser (which expands the variables the server's environment sets).
 */
export interface WordValue {
  /** The exact text the program receives, when nothing in it depends on the run. */
  exact?: string;
  /** The text with the variables the command does not set kept as written. */
  text: string;
  /** Why the value cannot be known before the run (a command substitution, `read x`). */
  dynamic?: string;
  /** Commands whose output becomes (part of) the word: `$(…)` and `<(…)`. */
  substitutions: Statement[];
  /** A process substitution's commands, when the word is one (`<(curl …)`). */
  procsub?: Statement;
}

/** Values of variables the command set; `undefined` for one it set to something unknowable. */
export type Variables = ReadonlyMap<string, string | undefined>;

/** `$X` text safe before a letter: `${X}`. */
const braced = (name: string) => `\${${name}}`;

export function wordValue(word: ShellWord, vars: Variables): WordValue {
  let exact: string | undefined = "";
  let text = "";
  let dynamic: string | undefined;
  const substitutions: Statement[] = [];
  let procsub: Statement | undefined;
  for (const p of word.parts) {
    switch (p.kind) {
      case "text":
        exact = exact === undefined ? undefined : exact + p.text;
        text += p.text;
        break;
      case "var": {
        const known = p.op === "" && vars.has(p.name);
        const value = known ? vars.get(p.name) : undefined;
        if (known && value !== undefined) {
          exact = exact === undefined ? undefined : exact + value;
          text += value;
        } else if (known) {
          dynamic ??= `the variable ${p.name} is set at run time`;
          exact = undefined;
          text += braced(p.name);
        } else {
          exact = undefined;
          text += p.source;
        }
        break;
      }
      case "subst":
        substitutions.push(p.body);
        dynamic ??= `${p.source.length > 40 ? `${p.source.slice(0, 37)}...` : p.source} is known only at run time`;
        exact = undefined;
        text += p.source;
        break;
      case "procsub":
        substitutions.push(p.body);
        procsub = p.body;
        // The program is handed a pipe, named like this.
        exact = exact === undefined ? undefined : `${exact}/dev/fd/63`;
        text += "/dev/fd/63";
        break;
      case "arith":
        substitutions.push(...p.inner);
        // A number: no separator, no `..`.
        exact = exact === undefined ? undefined : `${exact}1`;
        text += "1";
        break;
    }
  }
  const out: WordValue = { text, substitutions };
  if (dynamic !== undefined) out.dynamic = dynamic;
  else if (exact !== undefined) out.exact = exact;
  if (procsub !== undefined) out.procsub = procsub;
  return out;
}

/**
 * The spellings a path rule must see for a word: wordReadings of its text. For an operand (a
 * word a handler knows is a path), also the word itself when it starts with `-`: wordReadings
 * reads such a word as an option's glued value, but `rm -- -x` removes `-x`.
 */
export function pathSpellings(value: WordValue, operand: boolean): { words: string[]; unjudgeable?: string } {
  const r = wordReadings(value.text);
  const words =
    operand && value.text.startsWith("-") && !r.words.includes(value.text)
      ? [value.text, ...r.words]
      : r.words;
  return r.unjudgeable === undefined ? { words } : { words, unjudgeable: r.unjudgeable };
}
