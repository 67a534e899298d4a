// Text that came from a server or a model is data, not terminal instructions. Before such text
// reaches a terminal every character that could move the cursor, recolour the screen, retitle the
// window or reorder what the reader sees is replaced by a visible escape.
import { escapeUntrusted, replaceHidden } from "../text/terminal-text.js";

/** `s` with every hidden character (src/core/text/terminal-text.ts) written as `\xNN`, `\uNNNN` or `\u{NNNNN}`. */
export function escapeForTerminal(s: string): string {
  return escapeUntrusted(s, "transcript");
}

/**
 * JSON text whose values are unchanged but which is safe to print: JSON.stringify already writes
 * C0 controls and lone surrogates as \uNNNN; this writes every other hidden character that way
 * too (one above U+FFFF as its two surrogate escapes, as JSON requires).
 */
export function terminalSafeJson(value: unknown): string {
  return replaceHidden(JSON.stringify(value), (ch) => {
    let out = "";
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return out;
  });
}

/** Shorten long server text for a one-line view, saying how much was cut. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}… (${s.length - max} more chars)`;
}
