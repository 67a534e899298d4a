/**
 * Checks, as it streams past, the rest of one array or object that is being dropped unread: from
 * the comma after one of its elements up to its closing bracket. Used by structure-cut.ts, which
 * needs to know that the text it drops is well-formed JSON without building any of it.
 *
 * It accepts exactly what JSON.parse would accept in that place: `( , value )*` in an array,
 * `( , "name" : value )*` in an object, with JSON's whitespace between tokens and any nesting
 * inside the values. Strings are checked for raw control characters and bad escapes, numbers
 * against JSON's grammar (no leading zeros, no `+`, no bare `.`), literals letter by letter.
 */
import { isDigit, isHex, isSpace, SHORT_ESCAPES } from "./json-chars.js";

const ARRAY = 0;
const OBJECT = 1;

// What comes next, outside a token.
const VALUE = 0;
const VALUE_OR_END = 1; // just after `[`
const NAME = 2; // after a comma in an object
const NAME_OR_END = 3; // just after `{`
const COLON = 4;
const AFTER_VALUE = 5;
// Inside a token.
const IN_STRING = 6;
const IN_NUMBER = 7;
const IN_LITERAL = 8;

// Where a number is, by JSON's grammar: what has been read so far.
const N_SIGN = 0; // `-`
const N_ZERO = 1; // a leading 0
const N_INT = 2; // digits after 1-9
const N_DOT = 3; // `.`
const N_FRAC = 4; // digits after `.`
const N_E = 5; // `e` or `E`
const N_E_SIGN = 6; // `+` or `-` after it
const N_EXP = 7; // exponent digits

/** A number may end after these (a bit per place above). */
const NUMBER_ENDS = (1 << N_ZERO) | (1 << N_INT) | (1 << N_FRAC) | (1 << N_EXP);

const LITERALS: Record<number, string> = { 0x74: "true", 0x66: "false", 0x6e: "null" };
/** What ends a run of plain characters in a string, where control characters must be caught. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const STRING_STOP = /["\\\u0000-\u001f]/g;
// Runs of simple elements after a complete one, each checked by the same grammar as below: a
// comma, then a value that is a literal, a number, a string, or an array or object of those
// (one level deeper still). A run must see the character after each element, so that a number
// cut off by the end of a piece is never taken as whole; what a run does not match is read
// character by character, so a fault is found there.
const WS = "[ \\t\\n\\r]*";
const STRING = '"(?:[^"\\\\\\u0000-\\u001f]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"';
const NUMBER = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?";
const SCALAR = `(?:${STRING}|${NUMBER}|true|false|null)`;
const containers = (v: string) =>
  `\\[${WS}(?:${v}(?:${WS},${WS}${v})*)?${WS}\\]|\\{${WS}(?:${STRING}${WS}:${WS}${v}(?:${WS},${WS}${STRING}${WS}:${WS}${v})*)?${WS}\\}`;
const SHALLOW = `(?:${SCALAR}|${containers(SCALAR)})`;
const SIMPLE = `(?:${SCALAR}|${containers(SHALLOW)})`;
const FOLLOWS = "(?=[ \\t\\n\\r,\\]}])";
const ARRAY_RUN = new RegExp(`(?:${WS},${WS}${SIMPLE}${FOLLOWS})+`, "y");
const OBJECT_RUN = new RegExp(`(?:${WS},${WS}${STRING}${WS}:${WS}${SIMPLE}${FOLLOWS})+`, "y");

/** Characters of a string read one by one before the regex takes over. */
const SHORT_STRING = 32;

/** A quote, a backslash or a raw control character. */
function isStringStop(c: number): boolean {
  return c === 0x22 || c === 0x5c || c < 0x20;
}

export class JsonTail {
  /** Open containers, the dropped one first. */
  private readonly open: number[];
  private next = AFTER_VALUE;
  /** Where a string that ends goes on: AFTER_VALUE for a value, COLON for a member name. */
  private afterString = AFTER_VALUE;
  /** 0: not in an escape; -1: just after a backslash; 1-4: hex digits of `\u` still to come. */
  private escape = 0;
  private number = N_SIGN;
  private literal = "";
  private literalAt = 0;
  private wrong = false;

  /** `container` is the one being dropped; the tail starts at the comma after one of its elements. */
  constructor(container: "array" | "object") {
    this.open = [container === "array" ? ARRAY : OBJECT];
  }

  /**
   * Reads `text` from `from`; returns the index of the dropped container's closing bracket, which
   * is not read (it belongs to the caller), or -1 when the text ended first. Once the text is not
   * well-formed, nothing more is read and the answer is always -1: the tail never ends.
   */
  read(text: string, from: number): number {
    const n = text.length;
    let i = from;
    while (i < n && !this.wrong) {
      if (this.next === AFTER_VALUE) {
        // Whole elements at a time where they are simple, which most are.
        const run = this.open[this.open.length - 1] === ARRAY ? ARRAY_RUN : OBJECT_RUN;
        run.lastIndex = i;
        // A run always ends before the end of the text: it looks at the character after it.
        if (run.test(text)) i = run.lastIndex;
      }
      const c = text.charCodeAt(i);
      switch (this.next) {
        case IN_STRING:
          i = this.stringChars(text, i);
          continue;
        case IN_NUMBER:
          if (this.numberChar(c)) {
            i++;
            // Where digits may go on, they mostly do: read them here.
            if (this.number === N_INT || this.number === N_FRAC || this.number === N_EXP)
              while (i < n && isDigit(text.charCodeAt(i))) i++;
            continue;
          }
          if (((1 << this.number) & NUMBER_ENDS) === 0) return this.fail();
          this.next = AFTER_VALUE;
          continue; // the character after the number is read as what follows a value
        case IN_LITERAL:
          if (c !== this.literal.charCodeAt(this.literalAt)) return this.fail();
          if (++this.literalAt === this.literal.length) this.next = AFTER_VALUE;
          i++;
          continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      switch (this.next) {
        case VALUE_OR_END:
          if (c === 0x5d /* ] */) {
            this.close();
            break;
          }
          this.value(c);
          break;
        case VALUE:
          this.value(c);
          break;
        case NAME_OR_END:
          if (c === 0x7d /* } */) {
            this.close();
            break;
          }
          this.name(c);
          break;
        case NAME:
          this.name(c);
          break;
        case COLON:
          if (c !== 0x3a /* : */) return this.fail();
          this.next = VALUE;
          break;
        default: {
          // AFTER_VALUE
          const top = this.open[this.open.length - 1] as number;
          if (c === 0x2c /* , */) {
            this.next = top === ARRAY ? VALUE : NAME;
          } else if (c === (top === ARRAY ? 0x5d : 0x7d)) {
            if (this.open.length === 1) return i;
            this.close();
          } else {
            return this.fail();
          }
        }
      }
      i++;
    }
    return -1;
  }

  private fail(): number {
    this.wrong = true;
    return -1;
  }

  private close(): void {
    this.open.pop();
    this.next = AFTER_VALUE;
  }

  private value(c: number): void {
    if (c === 0x22 /* " */) {
      this.next = IN_STRING;
      this.afterString = AFTER_VALUE;
    } else if (c === 0x5b /* [ */) {
      this.open.push(ARRAY);
      this.next = VALUE_OR_END;
    } else if (c === 0x7b /* { */) {
      this.open.push(OBJECT);
      this.next = NAME_OR_END;
    } else if (c === 0x2d /* - */ || isDigit(c)) {
      this.next = IN_NUMBER;
      this.number = c === 0x2d ? N_SIGN : c === 0x30 ? N_ZERO : N_INT;
    } else if (LITERALS[c] !== undefined) {
      this.next = IN_LITERAL;
      this.literal = LITERALS[c];
      this.literalAt = 1;
    } else {
      this.wrong = true;
    }
  }

  private name(c: number): void {
    if (c !== 0x22 /* " */) {
      this.wrong = true;
      return;
    }
    this.next = IN_STRING;
    this.afterString = COLON;
  }

  /** One more character of a number, if it can be one here. */
  private numberChar(c: number): boolean {
    const digit = isDigit(c);
    switch (this.number) {
      case N_SIGN:
        if (!digit) return false;
        this.number = c === 0x30 ? N_ZERO : N_INT;
        return true;
      case N_ZERO:
      case N_INT:
        if (digit) {
          // A leading zero is a whole integer part: `01` is two numbers, which is not JSON.
          if (this.number === N_ZERO) return false;
          return true;
        }
        if (c === 0x2e /* . */) this.number = N_DOT;
        else if (c === 0x65 || c === 0x45 /* e E */) this.number = N_E;
        else return false;
        return true;
      case N_DOT:
        if (!digit) return false;
        this.number = N_FRAC;
        return true;
      case N_FRAC:
        if (digit) return true;
        if (c !== 0x65 && c !== 0x45) return false;
        this.number = N_E;
        return true;
      case N_E:
        if (c === 0x2b || c === 0x2d /* + - */) this.number = N_E_SIGN;
        else if (digit) this.number = N_EXP;
        else return false;
        return true;
      default:
        // N_E_SIGN, N_EXP
        if (!digit) return false;
        this.number = N_EXP;
        return true;
    }
  }

  /** Characters of a string from `i`; returns the index after those read. */
  private stringChars(text: string, i: number): number {
    if (this.escape === -1) {
      const c = text.charCodeAt(i);
      if (c === 0x75 /* u */) this.escape = 4;
      else if (SHORT_ESCAPES.has(c)) this.escape = 0;
      else this.wrong = true;
      return i + 1;
    }
    if (this.escape > 0) {
      if (!isHex(text.charCodeAt(i))) this.wrong = true;
      this.escape--;
      return i + 1;
    }
    // Most strings are short: a few characters read here cost less than a regex search.
    const n = text.length;
    const near = Math.min(n, i + SHORT_STRING);
    let j = i;
    while (j < near && !isStringStop(text.charCodeAt(j))) j++;
    if (j === near && near < n) {
      STRING_STOP.lastIndex = near;
      j = STRING_STOP.exec(text)?.index ?? n;
    }
    if (j === n) return n;
    const c = text.charCodeAt(j);
    if (c === 0x22) this.next = this.afterString;
    else if (c === 0x5c) this.escape = -1;
    else this.wrong = true; // a raw control character
    return j + 1;
  }
}
