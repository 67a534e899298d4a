import { escapeUntrusted } from "../text/terminal-text.js";

/**
 * Text from a server (descriptions, instructions, tool names) is untrusted: printed raw, an ESC
 * sequence can repaint the terminal, hide lines or fake a clean diff, and invisible characters
 * can hide words. Every such character is shown as an escape (src/core/text/terminal-text.ts); a
 * backslash is doubled so that a literal "\x1b" in the text cannot pass for an escaped ESC.
 */
export function escapeForTerminal(text: string): string {
  return escapeUntrusted(text, "diff");
}
