// Text that came from a server or a model is data, not terminal instructions. Before such text
// reaches a terminal every character that could move the cursor, recolour the screen, retitle the
// window or reorder what the reader sees is replaced by a visible escape.

/**
 * Characters shown as escapes: C0 controls (including ESC, CR, LF, TAB, since a transcript line
 * must stay one line), DEL, C1 controls, bidi embeddings/overrides/isolates and marks, zero-width
 * characters, the line and paragraph separators, the BOM, and lone surrogates.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `s` with every unsafe character written as `\xNN` (up to U+00FF) or `\uNNNN`. */
export function escapeForTerminal(s: string): string {
  return s.replace(UNSAFE, escapeChar);
}

/**
 * JSON text whose values are unchanged but which is safe to print: JSON.stringify already writes
 * C0 controls as \u00NN; this also writes C1 controls, bidi and zero-width characters that way.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    UNSAFE,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Shorten long server text for a one-line view, saying how much was cut. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}… (${s.length - max} more chars)`;
}
