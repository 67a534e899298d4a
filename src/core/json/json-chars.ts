/** JSON's character classes, by UTF-16 code unit (or byte: the same values in ASCII). */

/** JSON's whitespace: space, tab, line feed, carriage return. */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A hex digit of a `\u` escape, either case. */
export function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** What may follow a backslash as a one-character escape (`\u` takes four hex digits). */
export const SHORT_ESCAPES: ReadonlySet<number> = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
