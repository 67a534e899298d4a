import type { Arg, Run } from "./api.js";

// How handlers read a word: its exact text when the command shows it, else its spelling.

/** The word's text, when known before the run. */
export const exact = (a: Arg | undefined): string | undefined => a?.value.exact;
/** The word's text, or its spelling when it is known only at run time. */
export const text = (a: Arg): string => a.value.exact ?? a.value.text;
/** A word the command spells literally. */
export const literal = (s: string): Arg => ({ value: { exact: s, text: s, substitutions: [] } });
/** Whether the word is an option (`-x`, `--x`), not `-` alone. */
export const startsOption = (a: Arg): boolean => text(a).startsWith("-") && text(a).length > 1;

/** The `--` that ends a program's options: `at(word)` is true for that word (skip it), `ended` after it. */
export class OptionsEnd {
  ended = false;
  at(t: string | undefined): boolean {
    if (this.ended || t !== "--") return false;
    this.ended = true;
    return true;
  }
}

/**
 * One word of a program whose options and operands mix: an operand (or `-`) is put in `operands`
 * and undefined returned; an option's text is returned; an option known only at run time makes
 * the program unknown, and false is returned (the caller stops reading).
 */
export function optionOrOperand(run: Run, a: Arg, operands: Arg[]): string | undefined | false {
  const t = exact(a);
  if (t === undefined && startsOption(a)) {
    run.unknown(`${run.program}: an option known only at run time`);
    return false;
  }
  if (t === undefined || !t.startsWith("-") || t === "-") {
    operands.push(a);
    return undefined;
  }
  return t;
}
