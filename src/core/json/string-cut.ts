/**
 * Reading a very large JSON line without holding all of it: every string literal (value or
 * member name) is kept up to `keep` characters of its value, and the rest is checked and dropped
 * as it streams past. Everything outside strings is kept as it is.
 *
 * Exact in the way the relay needs (docs/decisions/0052-cut-long-strings-of-huge-frames.md):
 * - JSON.parse accepts the kept text exactly when it accepts the whole text: the dropped part of a
 *   string is checked for what JSON.parse would refuse there (a raw control character, a bad
 *   escape); if anything is wrong, a raw control character is put in the kept text so that it is
 *   refused too. Everything else JSON.parse could refuse is in the kept text.
 * - Parsed, the kept text is the whole text's value with each string longer than `keep`
 *   characters cut to its first `keep` (two member names alike in their first `keep` characters
 *   become one member, as a duplicate name would).
 *
 * Characters are UTF-16 code units of the parsed value, as String#length counts them: an escape
 * (`\n`, `\u00e9`) is one. So a string cut here is still longer than any budget below `keep`.
 */

import { isHex, SHORT_ESCAPES } from "./json-chars.js";
import { QuoteFinder } from "./quote-finder.js";

export interface CutCount {
  /** String literals that lost characters. */
  strings: number;
  /** Characters of JSON text dropped from them. */
  chars: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** What ends a run of characters in a dropped string, where control characters must be caught here. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SPECIAL_OR_CONTROL = /["\\\u0000-\u001f]/g;
/** Put in the kept text where a dropped part was not valid JSON: JSON.parse refuses it. */
const REFUSED = "\u0001";

export class JsonStringCutter {
  private readonly parts: string[] = [];
  private inString = false;
  /** Characters of the current string's value read so far (all kept until `keep`). */
  private taken = 0;
  /** Past `keep`: the rest of the current string is checked and dropped. */
  private dropping = false;
  private droppedHere = 0;
  /** 0: not in an escape; -1: just after a backslash; 1–4: hex digits of `\u` still to come. */
  private escape = 0;
  /** The dropped part of the current string holds something JSON.parse would refuse. */
  private bad = false;
  private readonly count: CutCount = { strings: 0, chars: 0 };
  /** What ends a run of plain characters in a kept string. */
  private readonly special = new QuoteFinder();

  constructor(private readonly keep: number) {
    if (!(keep >= 1)) throw new RangeError(`expected keep to be at least 1, got ${keep}`);
  }

  /** The next piece of the line's text; pieces may split it anywhere. */
  add(piece: string): void {
    const n = piece.length;
    let i = 0;
    /** Start of the piece's part still to be kept; -1 while dropping. */
    let from = this.dropping ? -1 : 0;
    this.special.reset(piece);
    while (i < n) {
      if (!this.inString) {
        const q = piece.indexOf('"', i);
        if (q === -1) break;
        this.inString = true;
        this.taken = 0;
        i = q + 1;
      } else if (this.escape !== 0) {
        // An escape that fills the string's room is cut after, by the plain branch (room 0).
        i = this.escapeChar(piece.charCodeAt(i), i);
      } else if (this.dropping) {
        SPECIAL_OR_CONTROL.lastIndex = i;
        const found = SPECIAL_OR_CONTROL.exec(piece);
        const j = found === null ? n : found.index;
        this.droppedHere += j - i;
        if (j === n) break;
        const c = piece.charCodeAt(j);
        if (c === QUOTE) {
          this.endDrop();
          from = j; // the closing quote is kept, after REFUSED if it was put in
          this.inString = false;
        } else {
          if (c === BACKSLASH) this.escape = -1;
          else this.bad = true; // a raw control character
          this.droppedHere++;
        }
        i = j + 1;
      } else {
        const j = this.special.next(i);
        const room = this.keep - this.taken;
        if (j - i >= room) {
          i += room;
          this.taken = this.keep;
          this.parts.push(piece.slice(from, i));
          from = -1;
          this.startDrop();
          continue;
        }
        this.taken += j - i;
        if (j === n) break;
        if (piece.charCodeAt(j) === QUOTE) this.inString = false;
        else this.escape = -1;
        i = j + 1;
      }
    }
    if (from !== -1) this.parts.push(from === 0 ? piece : piece.slice(from));
  }

  /** One character of an escape sequence; returns the index after it. */
  private escapeChar(c: number, i: number): number {
    if (this.escape === -1) {
      if (c === 0x75 /* u */) this.escape = 4;
      else {
        if (this.dropping && !SHORT_ESCAPES.has(c)) this.bad = true;
        this.escape = 0;
      }
    } else {
      if (this.dropping && !isHex(c)) this.bad = true;
      this.escape--;
    }
    if (this.dropping) this.droppedHere++;
    else if (this.escape === 0) this.taken++;
    return i + 1;
  }

  private startDrop(): void {
    this.dropping = true;
    this.droppedHere = 0;
    this.bad = false;
  }

  private endDrop(): void {
    this.dropping = false;
    // Inside the string, so JSON.parse names the right kind of fault.
    if (this.bad) this.parts.push(REFUSED);
    if (this.droppedHere > 0) {
      this.count.strings++;
      this.count.chars += this.droppedHere;
    }
  }

  /** The text kept since the last `take`, so that a next reader can follow as the line streams. */
  take(): string {
    const text = this.parts.join("");
    this.parts.length = 0;
    return text;
  }

  /** The kept text not yet taken, and what was cut (undefined when nothing was). */
  finish(): { text: string; cut: CutCount | undefined } {
    // The line ended inside a string: unterminated, so refused either way; still counted.
    if (this.dropping) this.endDrop();
    return { text: this.take(), cut: this.count.strings > 0 ? { ...this.count } : undefined };
  }
}
