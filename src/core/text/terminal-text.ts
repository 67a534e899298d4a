/**
 * The characters that must never reach a terminal raw when the text came from a server or a
 * model: C0 controls (ESC among them), DEL, C1 controls, bidi embeddings, overrides, isolates and
 * marks, zero-width characters, the line and paragraph separators, and the BOM. Printed raw they
 * can move the cursor, recolour or retitle, or reorder what the reader sees. This is the part of
 * the set that a regex without the `u` flag can name; `HIDDEN` below is the whole set.
 */
export const UNSAFE_CHAR_CLASS =
  "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff";

/**
 * Every code point untrusted text may not show raw. Besides the controls above, characters that
 * print as nothing (or as something else) let a server hide words from the person reviewing
 * them: Unicode tag characters (U+E0000–E007F) spell a whole hidden sentence, and format
 * characters, variation selectors, Hangul fillers, the soft hyphen and the other
 * default-ignorable code points show as nothing at all. Private-use and unassigned code points
 * have no agreed glyph, and a lone surrogate is not text. Default_Ignorable_Code_Point already
 * holds the tags, variation selectors and Hangul fillers; they are named anyway so that the set
 * never depends on one property's edges.
 */
const HIDDEN_CLASS =
  `${UNSAFE_CHAR_CLASS}\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Cs}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}` +
  "\\u{E0000}-\\u{E007F}\\u{FE00}-\\u{FE0F}\\u{E0100}-\\u{E01EF}\\u115f\\u1160\\u3164\\uffa0";
// The class lists variation selectors as a range of single code points, not as marks combined with
// the character before them, which is what no-misleading-character-class guards against.
// eslint-disable-next-line no-misleading-character-class
const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, "gu");
// eslint-disable-next-line no-misleading-character-class
const HIDDEN_OR_BACKSLASH = new RegExp(`[${HIDDEN_CLASS}\\\\]`, "gu");

/** `text` with each hidden code point replaced by `escape(ch)`. */
export function replaceHidden(text: string, escape: (ch: string) => string): string {
  return text.replace(HIDDEN, escape);
}

/**
 * One code point as a visible escape: `\xNN` up to U+00FF, `\uNNNN` up to U+FFFF, `\u{NNNNN}`
 * above (a tag character reads as `\u{e0041}`, not as a pair of surrogates).
 */
export function charEscape(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * How a backslash and the common whitespace controls are shown:
 * - "transcript" (replay, eval): backslashes stay as they are so Windows paths stay readable,
 *   and TAB, CR and LF are `\x09`, `\x0d`, `\x0a` like every other control (decision 0030);
 * - "diff" (approve --diff, pin notices): a backslash is doubled so that a literal `\x1b` in a
 *   description cannot pass for an escaped ESC, and TAB, CR and LF read as `\t`, `\r`, `\n`.
 */
export type EscapeStyle = "transcript" | "diff";

const WHITESPACE: Readonly<Record<string, string>> = { "\n": "\\n", "\t": "\\t", "\r": "\\r" };

/**
 * The one escaper every terminal output of untrusted text goes through (replay, eval,
 * approve, the relay's pin notices): every hidden code point becomes a visible escape.
 */
export function escapeUntrusted(text: string, style: EscapeStyle): string {
  if (style === "transcript") return text.replace(HIDDEN, charEscape);
  return text.replace(HIDDEN_OR_BACKSLASH, (ch) =>
    ch === "\\" ? "\\\\" : (WHITESPACE[ch] ?? charEscape(ch)),
  );
}
