/**
 * Text from a server (descriptions, instructions) is untrusted: printed raw, an ESC sequence can
 * repaint the terminal, hide lines or fake a clean diff. Control characters (C0, DEL, C1), bidi
 * overrides and zero-width characters are shown as escapes; a backslash is doubled so that a
 * literal "\x1b" in the text cannot pass for an escaped ESC.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\\]/g;

export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** A quoted, escaped, length-capped rendering of an untrusted string for one-line messages. */
export function quoteUntrusted(text: string, max = 200): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return `"${escapeForTerminal(shown).replace(/"/g, '\\"')}"`;
}
