/**
 * Whether a frame's text names a judged method (tools/call, resources/read, prompts/get) in any
 * way a server might read it: loosely, for text that is not a message, piece by piece for a line
 * too large to keep, and in every spelling of duplicate or case-folded `method` keys.
 */
import { JUDGED_METHODS } from "./judged-methods.js";
import { foldKey } from "../json/key-fold.js";
import { closingQuote } from "../json/strict-json.js";

/**
 * Whether text that could not be parsed (or parsed into something that is not a message) still
 * looks like a judged call. Deliberately loose, because a lenient server decides what it reads:
 * escapes (`tools\/call`, `\u0074ools/call`, JSON5's `\x74` and `t\ools`), case and whitespace
 * must not slip past, so the text is tested as written and once more with every escape decoded
 * and all whitespace removed (docs/decisions/0058-line-breaks-outputs-and-remote-paths.md).
 */
const LOOKS_JUDGED = /tools.{0,6}call|resources.{0,6}read|prompts.{0,6}get/i;
export function looksLikeJudgedCall(text: string): boolean {
  return LOOKS_JUDGED.test(text) || LOOKS_JUDGED.test(unescaped(text));
}

/**
 * `text` with `\uXXXX`, `\u{X…}` and `\xXX` decoded, any other backslash dropped (`\/` is `/`,
 * `\t` reads as `t`: extra matches only ever refuse more), and whitespace removed.
 */
function unescaped(text: string): string {
  return text
    .replace(
      /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/g,
      (_m, b: string, u: string, x: string) =>
        String.fromCodePoint(Math.min(parseInt(b ?? u ?? x, 16), 0x10ffff)),
    )
    .replace(/\\/g, "")
    .replace(/\s+/g, "");
}

/** Longer than any match of LOOKS_JUDGED (`resources` + 6 + `read`). */
const WATCH_TAIL = 32;
/** Longer than any escape `unescaped` decodes (`\u{10FFFF}`). */
const ESCAPE_CHARS = 10;

/**
 * looksLikeJudgedCall over a text that arrives in pieces (a line too large to keep whole), with
 * the answer it gives on the whole text. The raw text is tested with the end of the last piece
 * before it; the unescaped text likewise, its pieces cut only where no escape can straddle the
 * cut (before a backslash among the last few characters, which waits for the next piece), so
 * decoding and whitespace removal give the whole text's result piece by piece.
 */
export class JudgedCallWatch {
  private seen = false;
  private rawTail = "";
  /** Raw text from a backslash near the end of the last piece, not yet decoded. */
  private held = "";
  private plainTail = "";

  add(piece: string): void {
    if (this.seen || piece.length === 0) return;
    const raw = this.rawTail + piece;
    this.rawTail = raw.slice(-WATCH_TAIL);
    const text = this.held + piece;
    const slash = text.indexOf("\\", Math.max(0, text.length - ESCAPE_CHARS));
    this.held = slash === -1 ? "" : text.slice(slash);
    this.seen = LOOKS_JUDGED.test(raw) || this.plain(slash === -1 ? text : text.slice(0, slash));
  }

  /** The whole text looks like a judged call. */
  found(): boolean {
    if (!this.seen && this.held.length > 0) this.seen = this.plain(this.held);
    this.held = "";
    return this.seen;
  }

  private plain(text: string): boolean {
    const plain = this.plainTail + unescaped(text);
    this.plainTail = plain.slice(-WATCH_TAIL);
    return LOOKS_JUDGED.test(plain);
  }
}

/**
 * Every string a message-level `method` key holds in `text` (valid JSON), duplicates included,
 * decoded, whatever the case of the key (`"Method"`: Go's encoding/json matches names that way).
 * Message level is the top object, or each object directly inside a top-level batch.
 * JSON.parse keeps the last of duplicate keys while a server may keep the first, so a frame with
 * duplicate keys is judged by every spelling, not only the one JSON.parse chose. A non-string
 * `method` value is reported as `undefined` (it cannot be classified).
 */
export function methodSpellings(text: string): Array<string | undefined> {
  const out: Array<string | undefined> = [];
  // Per open container: is it an object, and is the next string a key?
  const stack: Array<{ object: boolean; expectKey: boolean }> = [];
  let topIsArray = false;
  let pendingMethod = false; // just read a message-level "method" key; its value comes next
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      const raw = text.slice(i, end + 1);
      const decoded = (): string => (raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1));
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        const messageLevel = stack.length === 1 || (stack.length === 2 && topIsArray);
        // Folded: a Go server reads "Method" or "METHOD" as the method too (key-fold.ts).
        pendingMethod = messageLevel && foldKey(decoded()) === "method";
      } else if (pendingMethod) {
        out.push(decoded());
        pendingMethod = false;
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length === 0) topIsArray = c === 0x5b;
      if (pendingMethod) out.push(undefined);
      pendingMethod = false;
      stack.push({ object: c === 0x7b, expectKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      if (top?.object) top.expectKey = true;
    } else if (pendingMethod && c !== 0x3a /* : */ && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      out.push(undefined); // a number, true, false or null
      pendingMethod = false;
    }
    i++;
  }
  return out;
}

/**
 * The judged method a frame with duplicate keys may name, or undefined when none of its
 * spellings can be. A spelling that is not a string, or only loosely looks like a judged one,
 * counts: the relay cannot say what the server will read.
 */
export function ambiguousJudgedMethod(text: string): string | undefined {
  for (const s of methodSpellings(text)) {
    if (s === undefined) {
      if (looksLikeJudgedCall(text)) return "tools/call";
      continue;
    }
    if (JUDGED_METHODS.has(s)) return s;
    if (looksLikeJudgedCall(s)) return "tools/call";
  }
  return undefined;
}
