/**
 * The characters that must never reach a terminal raw when the text came from a server or a
 * model: C0 controls (ESC among them), DEL, C1 controls, bidi embeddings, overrides, isolates and
 * marks, zero-width characters, the line and paragraph separators, and the BOM. Printed raw they
 * can move the cursor, recolour or retitle, or reorder what the reader sees.
 */
export const UNSAFE_CHAR_CLASS =
  "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff";

/** One character as a visible escape: `\xNN` up to U+00FF, `\uNNNN` above. */
export function charEscape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}
