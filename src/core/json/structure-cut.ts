/**
 * Reading a very large JSON line without building all of its structure. A line of millions of
 * small elements parses to a value many times its size; once the text kept passes `budget`
 * characters, every array and object deep enough to be content (below a message's own members
 * and their values' own members) keeps no further elements: the rest of it is checked
 * (json-tail.ts) and dropped as it streams past, up to its closing bracket, which is kept.
 * Runs after the string cutter (string-cut.ts), on the text it keeps.
 *
 * Exact in the way the relay needs (docs/decisions/0053-cut-the-structure-of-huge-frames.md):
 * - JSON.parse accepts the kept text exactly when it accepts the whole text. What is dropped is
 *   always the tail of a container after a complete element; the tail is checked, and when it
 *   is not well-formed nothing more is kept, so the kept text stops inside that container, which
 *   it never closes, and JSON.parse refuses it.
 * - Parsed, the kept text is the whole text's value with some arrays shortened and some objects
 *   missing their later members, never in a message's own members (`id`, `method`, `params`,
 *   `result`, `error`...) or in the members of `params`, `result` or `error` themselves.
 */
import { isHex, isSpace } from "./json-chars.js";
import { JsonTail } from "./json-tail.js";
import { QuoteFinder } from "./quote-finder.js";

export interface StructureCutCount {
  /** Arrays and objects cut short: each lost every element or member after some point. */
  containers: number;
  /** Characters of JSON text dropped from them. */
  chars: number;
  /**
   * With a scan budget: something was cut while a message's scanned text was still within it
   * (the other-text budget ran out first), so the scan may miss text it would have read.
   */
  beforeScan?: true;
}

/**
 * Where and by what the cut starts.
 *
 * Without `scan`, once the kept text passes `budget` characters. With `scan`, once a message's
 * text as the content scan counts it (taint/observe.ts responseWindows: string values, not member
 * names, in the message's `result` and `error`, at any depth, each one
 * character more than its length) passes `scan.chars` (inside `result` or `error`, that
 * member's text alone, since the scan reads `result` first wherever it stands), so that the cut
 * never drops what the scan reads; and, to bound memory when little of a frame is such text, once the rest of the
 * kept text passes `budget` (then the cut is said to come `beforeScan`). Escapes count 0 towards
 * the scan's measure, so it never counts more than the scan would.
 */
export interface StructureCutOptions {
  /**
   * Levels below a message whose arrays and objects keep every element: 2 keeps the message's
   * members and their members (`result`'s, `params`'), 3 also the members of those (a call's
   * `arguments`). Default 2.
   */
  keepLevels?: number;
  scan?: { chars: number };
}

const ARRAY = 0;
const OBJECT = 1;
/** The characters that start a string or open, close or separate elements. */
const STRUCTURE = /["[\]{},]/g;
/** Characters looked at one by one before STRUCTURE searches. */
const NEAR = 16;
/** A message-level member name longer than this is neither `result` nor `error`. */
const NAME_CHARS = 8;
/** A message-level member name that is neither (too long, or spelled with an escape). */
const OTHER_NAME = "\u0000";

export class JsonStructureCutter {
  private readonly parts: string[] = [];
  /** Characters of kept text so far, not counting the current piece's. */
  private kept = 0;
  private readonly open: number[] = [];
  /** Whether the outermost container is an array (a batch): messages sit one level deeper. */
  private batch = false;
  private inString = false;
  private escaped = false;
  /** The last character outside strings that was not whitespace (a string counts as `"`). */
  private last = 0;
  /** The tail being dropped, while one is; one that is not well-formed never ends. */
  private tail: JsonTail | undefined;
  private readonly count: StructureCutCount = { containers: 0, chars: 0 };
  /** Where a kept string may end: the kept text is checked by JSON.parse, so only that. */
  private readonly special = new QuoteFinder();
  private readonly keepLevels: number;
  private readonly scan: { chars: number } | undefined;
  /** The scan's measure of the current message so far (only with `scan`). */
  private scanned = 0;
  /** The scan's measure over the whole line, so that the rest of the kept text can be told. */
  private scannedAll = 0;
  /** The current message-level member, when it is `result` or `error` (spelled so, no escapes). */
  private member: "result" | "error" | null = null;
  /** What each of those members added to `scanned`: a repeated one replaces the first. */
  private memberScanned = { result: 0, error: 0 };
  /** The current string: counted for the scan, or a message-level member name being read. */
  private counting = false;
  private name: string | null = null;
  /** The counted string has a character the scan reads (escapes included). */
  private nonEmpty = false;
  /** Hex digits of a `\u` escape still to come in a counted string (they count 0). */
  private hexLeft = 0;

  constructor(
    private readonly budget: number,
    options: StructureCutOptions = {},
  ) {
    if (!(budget >= 0)) throw new RangeError(`expected budget to be at least 0, got ${budget}`);
    this.keepLevels = options.keepLevels ?? 2;
    if (!(this.keepLevels >= 1))
      throw new RangeError(`expected keepLevels to be at least 1, got ${this.keepLevels}`);
    this.scan = options.scan;
  }

  /** How deep a message sits: 1, or 2 inside a batch. */
  private get base(): number {
    return this.batch ? 2 : 1;
  }

  /** The next piece of the line's text; pieces may split it anywhere. */
  add(piece: string): void {
    const n = piece.length;
    let i = 0;
    /** Start of the piece's part still to be kept (while in a tail, from where it ends). */
    let from = 0;
    this.special.reset(piece);
    while (i < n) {
      if (this.tail !== undefined) {
        const end = this.tail.read(piece, i);
        if (end === -1) {
          this.count.chars += n - i;
          return;
        }
        this.count.chars += end - i;
        this.tail = undefined;
        from = end;
        i = end; // the closing bracket is read below, as kept text
        continue;
      }
      if (this.inString) {
        i = this.stringChars(piece, i);
        continue;
      }
      // Only quotes, brackets and commas matter here: what lies between (numbers, literals,
      // colons, whitespace, or text that is not JSON at all) is passed over, a few characters one
      // by one (a regex search costs more than a short number), then in one search.
      const near = Math.min(n, i + NEAR);
      let j = i;
      while (j < near && !isStructure(piece.charCodeAt(j))) j++;
      if (j === near && near < n) {
        STRUCTURE.lastIndex = near;
        j = STRUCTURE.exec(piece)?.index ?? n;
      }
      if (j > i) {
        let k = j - 1;
        while (k >= i && isSpace(piece.charCodeAt(k))) k--;
        if (k >= i) this.last = piece.charCodeAt(k);
        i = j;
        if (i === n) break;
      }
      const c = piece.charCodeAt(i);
      if (c === 0x22 /* " */) {
        this.inString = true;
        if (this.scan) this.startString();
        this.last = c;
      } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        if (this.open.length === 0) this.batch = c === 0x5b;
        this.open.push(c === 0x5b ? ARRAY : OBJECT);
        if (this.open.length === this.base) this.startMessage();
        this.last = c;
      } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
        this.open.pop();
        if (this.open.length < this.base) this.member = null;
        this.last = c;
      } else if (c === 0x2c /* , */ && this.dropsAfter(this.kept + i - from)) {
        this.parts.push(piece.slice(from, i));
        this.kept += i - from;
        this.tail = new JsonTail(this.open[this.open.length - 1] === ARRAY ? "array" : "object");
        this.count.containers++;
        continue; // the comma is the tail's first character
      } else {
        this.last = c; // a comma kept
      }
      i++;
    }
    // Only reached outside a tail: a piece that ends in one returns above.
    this.parts.push(from === 0 ? piece : piece.slice(from));
    this.kept += n - from;
  }

  /**
   * Whether the rest of the innermost container goes, at a comma with `kept` characters kept
   * before it. Never right after its opening bracket: `[,` is not JSON, and dropping from there
   * would leave `[]`, which is.
   */
  private dropsAfter(kept: number): boolean {
    const overScan = this.scan !== undefined && this.scannedOf() > this.scan.chars;
    const overRest = kept - this.scannedAll > this.budget;
    if (!overScan && !overRest) return false;
    if (this.last === 0x5b || this.last === 0x7b) return false;
    // A message is depth 1 (2 in a batch); its members' values are one deeper, and their members
    // are kept too (and theirs, with keepLevels 3): what can go is inside those.
    if (this.open.length < this.base + this.keepLevels) return false;
    if (this.scan && !overScan) this.count.beforeScan = true;
    return true;
  }

  /**
   * The scan's measure that decides a cut here: inside `result` or `error`, that member's alone
   * (the scan reads `result` first wherever it stands, so `error` before it must not use up its
   * share); elsewhere, the message's.
   */
  private scannedOf(): number {
    return this.member === null ? this.scanned : this.memberScanned[this.member];
  }

  private startMessage(): void {
    this.scanned = 0;
    this.member = null;
    this.memberScanned = { result: 0, error: 0 };
  }

  /** A string begins: a message-level member name is read; a value the scan reads is counted. */
  private startString(): void {
    const depth = this.open.length;
    const isName = this.open[depth - 1] === OBJECT && (this.last === 0x7b || this.last === 0x2c);
    this.name = isName && depth === this.base ? "" : null;
    this.counting = !isName && this.member !== null;
    this.nonEmpty = false;
  }

  /** A string ends: a member name takes effect; a counted value adds its separator. */
  private endString(): void {
    // The scan puts a line break after each string it reads, and reads nothing of an empty one.
    if (this.counting && this.nonEmpty) this.addScanned(1);
    else if (this.name !== null) {
      const m = this.name === "result" || this.name === "error" ? this.name : null;
      // JSON.parse keeps the last of repeated members: only that one is scanned.
      if (m !== null) {
        this.scanned -= this.memberScanned[m];
        this.scannedAll -= this.memberScanned[m];
        this.memberScanned[m] = 0;
      }
      this.member = m;
      this.name = null;
    }
    this.counting = false;
  }

  private addScanned(n: number): void {
    this.scanned += n;
    this.scannedAll += n;
    if (this.member !== null) this.memberScanned[this.member] += n;
  }

  /** Characters of a kept string from `i`; returns the index after those read. */
  private stringChars(piece: string, i: number): number {
    if (this.escaped) {
      this.escaped = false;
      if (this.name !== null) this.name = OTHER_NAME; // spelled with an escape: not counted
      if (this.counting) {
        this.nonEmpty = true;
        if (piece.charCodeAt(i) === 0x75 /* u */) this.hexLeft = 4;
      }
      return i + 1;
    }
    if (this.hexLeft > 0) {
      this.hexLeft--;
      // Not JSON (`\u"`): the fault is in the kept text, and the quote is read as a quote.
      if (isHex(piece.charCodeAt(i))) return i + 1;
      this.hexLeft = 0;
    }
    const j = this.special.next(i);
    if (this.counting) {
      this.addScanned(j - i);
      this.nonEmpty ||= j > i;
    } else if (this.name !== null && this.name !== OTHER_NAME)
      this.name = this.name.length + (j - i) <= NAME_CHARS ? this.name + piece.slice(i, j) : OTHER_NAME;
    if (j === piece.length) return j;
    if (piece.charCodeAt(j) === 0x22) {
      this.inString = false;
      if (this.scan) this.endString();
    } else this.escaped = true;
    return j + 1;
  }

  /** The kept text, and what was dropped (undefined when nothing was). */
  finish(): { text: string; cut: StructureCutCount | undefined } {
    // A line that ends inside a dropped tail never closed its container: the kept text, which
    // ends inside it too, is refused as the whole text is.
    const text = this.parts.join("");
    this.parts.length = 0;
    const dropped = this.count.containers > 0;
    return { text, cut: dropped ? { ...this.count } : undefined };
  }
}

function isStructure(c: number): boolean {
  return c === 0x22 || c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}
