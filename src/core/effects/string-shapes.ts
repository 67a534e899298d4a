/** What a string in the arguments looks like: a URL, prose, or something that starts like a path. */

const URL_RE = /^\s*https?:\/\//i;

/** An http or https URL (leading blanks allowed): fetched, not opened. */
export function isUrl(s: string): boolean {
  return URL_RE.test(s);
}

/**
 * Free text: a line break inside the text nearly always means a file body or a message. Leading
 * and trailing line breaks do not count: a server that trims its input would still open
 * `~/.bashrc\n`. But a line break is a valid character in a Linux file name, so text with one
 * is still a path when its argument's name says path or output, or when it starts like a path
 * (startsLikePath); see docs/decisions/0058-line-breaks-outputs-and-remote-paths.md.
 */
export function isProse(s: string): boolean {
  const t = s.trim();
  // Four searches rather than one regular expression: several times faster on megabyte strings.
  return t.includes("\n") || t.includes("\r") || t.includes("\u2028") || t.includes("\u2029");
}

/**
 * How a path starts and prose does not: `/`, `\`, `~`, `$VAR`, `%VAR%`, `C:`, `./`, `../`,
 * `file:`, or a first line that is one word with a separator in it (`conf.d/a` + line break + `b`).
 * A first line with a space (`src/x.ts: fix` + more lines) is a message.
 */
const PATH_START =
  /^(?:[\\/~$%]|\.\.?[\\/]|[A-Za-z]:[\\/]|file:|[^\s\\/]+[\\/][^\s]*(?:[\r\n\u2028\u2029]|$))/i;

export function startsLikePath(s: string): boolean {
  return PATH_START.test(s.trimStart());
}
