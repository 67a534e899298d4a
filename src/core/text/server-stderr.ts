/**
 * How a line of the server's stderr is shown on the stderr effectgate shares with it. Printed raw,
 * a server line could end in `\r` or an ANSI erase and wipe effectgate's notice above it, or begin
 * with `effectgate:` and pass for one (issue 17). So every server line starts with a mark no
 * notice of effectgate's starts with, and every character that could move the cursor, erase,
 * recolour or hide text is shown as an escape; a tab stays a tab, since it can only move right
 * (docs/decisions/0071-what-a-person-is-shown.md).
 */
import { charEscape, replaceHidden } from "./terminal-text.js";

/** What every server stderr line starts with; effectgate's own lines start `effectgate: `. */
export const SERVER_STDERR_MARK = "[server] ";

/** One server stderr line (without its line end) as it is relayed. */
export function serverStderrLine(text: string): string {
  return SERVER_STDERR_MARK + replaceHidden(text, (ch) => (ch === "\t" ? ch : charEscape(ch)));
}
