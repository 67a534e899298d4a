import type { Arg } from "./api.js";

// How handlers read a word: its exact text when the command shows it, else its spelling.

/** The word's text, when known before the run. */
export const exact = (a: Arg | undefined): string | undefined => a?.value.exact;
/** The word's text, or its spelling when it is known only at run time. */
export const text = (a: Arg): string => a.value.exact ?? a.value.text;
/** A word the command spells literally. */
export const literal = (s: string): Arg => ({ value: { exact: s, text: s, substitutions: [] } });
/** Whether the word is an option (`-x`, `--x`), not `-` alone. */
export const startsOption = (a: Arg): boolean => text(a).startsWith("-") && text(a).length > 1;
