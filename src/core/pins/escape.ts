import { charEscape, UNSAFE_CHAR_CLASS } from "../terminal-text.js";

/**
 * Text from a server (descriptions, instructions) is untrusted: printed raw, an ESC sequence can
 * repaint the terminal, hide lines or fake a clean diff. Control characters (C0, DEL, C1), bidi
 * overrides and zero-width characters are shown as escapes; a backslash is doubled so that a
 * literal "\x1b" in the text cannot pass for an escaped ESC.
 */
const UNSAFE = new RegExp(`[${UNSAFE_CHAR_CLASS}\\\\]`, "g");

export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return charEscape(c);
  });
}

/** A quoted, escaped, length-capped rendering of an untrusted string for one-line messages. */
export function quoteUntrusted(text: string, max = 200): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return `"${escapeForTerminal(shown).replace(/"/g, '\\"')}"`;
}
