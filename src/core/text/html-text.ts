// Text from a server, a model or a log, made safe for an HTML page (decision 0096).
//
// Two steps, both needed. First every hidden character (controls, bidi overrides, zero-width
// and other invisible code points) is written as a visible escape, as for a terminal: a browser
// reorders and hides them just as a terminal does. Then the five characters HTML gives meaning
// to in text and in double-quoted attribute values become entities. That is the whole of it, so
// it is written here and audited by its tests rather than taken from a library: the libraries
// that do the second step (escape-html, he) do not do the first, and the pages never put
// untrusted text anywhere else (no script, no style, no URL, no unquoted attribute).
import { escapeUntrusted } from "./terminal-text.js";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `s` as HTML text or a double-quoted attribute value that shows exactly what `s` says. */
export function htmlText(s: string): string {
  return escapeUntrusted(s, "transcript").replace(/[&<>"']/g, (ch) => ENTITIES[ch] as string);
}
