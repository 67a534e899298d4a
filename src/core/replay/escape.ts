// Text that came from a server or a model is data, not terminal instructions. Before such text
// reaches a terminal every character that could move the cursor, recolour the screen, retitle the
// window or reorder what the reader sees is replaced by a visible escape.
import { charEscape, UNSAFE_CHAR_CLASS } from "../terminal-text.js";

/** The unsafe characters (terminal-text.ts), plus lone surrogates: a transcript must stay valid text. */
const UNSAFE = new RegExp(
  `[${UNSAFE_CHAR_CLASS}]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`,
  "g",
);

/** `s` with every unsafe character written as `\xNN` (up to U+00FF) or `\uNNNN`. */
export function escapeForTerminal(s: string): string {
  return s.replace(UNSAFE, charEscape);
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
