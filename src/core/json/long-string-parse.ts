/**
 * JSON.parse for very large frames without a second copy of their long strings.
 *
 * JSON.parse copies every string value out of the text, so a 64 MiB `content` argument exists
 * twice. Here each long string value without escapes or control characters is swapped for a
 * short placeholder, the much smaller skeleton is parsed, and the placeholders are replaced by
 * slices of the original text, which V8 keeps as views into it. The value equals JSON.parse(text)
 * for every input, and throws where JSON.parse throws: only well-formed string literals are
 * swapped, for other well-formed literals, so the token stream keeps its shape.
 */
import { randomBytes } from "node:crypto";
import { closingQuote } from "./strict-json.js";
import { isSpace } from "./json-chars.js";

/** Strings shorter than this are left to JSON.parse: not worth a placeholder. */
const LONG_STRING_CHARS = 64 * 1024;

// Control characters must be escaped inside a JSON string; one that is not makes JSON.parse fail,
// so such a string is never swapped (the skeleton would otherwise parse where the text does not).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f]/;

export function parseSharingLongStrings(text: string, minChars = LONG_STRING_CHARS): unknown {
  if (text.length < minChars) return JSON.parse(text);
  // Unguessable, so no string in the frame can pose as a placeholder.
  const tag = `\u2060effectgate:${randomBytes(16).toString("hex")}:`;
  const spans: Array<[number, number]> = [];
  const parts: string[] = [];
  let copied = 0;
  for (let open = text.indexOf('"'); open !== -1;) {
    const close = closingQuote(text, open);
    if (close - open - 1 >= minChars && !isKey(text, close) && swappable(text, open + 1, close)) {
      parts.push(text.slice(copied, open), JSON.stringify(tag + String(spans.length)));
      spans.push([open + 1, close]);
      copied = close + 1;
    }
    open = text.indexOf('"', close + 1);
  }
  if (spans.length === 0) return JSON.parse(text);
  parts.push(text.slice(copied));
  const skeleton: unknown = JSON.parse(parts.join(""));
  return restore(skeleton, (s) => {
    if (!s.startsWith(tag)) return s;
    const span = spans[Number(s.slice(tag.length))];
    return span === undefined ? s : text.slice(span[0], span[1]);
  });
}

/** A string followed (after whitespace) by a colon is a member name, not a value. */
function isKey(text: string, close: number): boolean {
  let i = close + 1;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 0x3a;
}

function swappable(text: string, from: number, to: number): boolean {
  const slash = text.indexOf("\\", from);
  if (slash !== -1 && slash < to) return false;
  // An unterminated string ends at the text's last index: leave it for JSON.parse to refuse.
  if (to >= text.length - 1 && text.charCodeAt(to) !== 0x22) return false;
  return !CONTROL.test(text.slice(from, to));
}

function restore(value: unknown, swap: (s: string) => string): unknown {
  if (typeof value === "string") return swap(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], swap);
    return value;
  }
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      // defineProperty, not assignment: a member named "__proto__" is an own property here.
      Object.defineProperty(obj, key, {
        value: restore(obj[key], swap),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return value;
}
