/**
 * Bash's ANSI-C quoting (`$'…'`), shared by the shell reader (src/core/shell/) and the hand
 * lexer kept for PowerShell and cmd (src/core/effects/shell-words.ts).
 */

/** A character of a hexadecimal or octal escape, at most `max` of them from `from`. */
function digits(text: string, from: number, max: number, re: RegExp): string {
  let s = "";
  while (s.length < max && from + s.length < text.length && re.test(text[from + s.length] as string))
    s += text[from + s.length];
  return s;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * Bash's `$'…'` from `start` (just after the opening quote): the decoded text and the index of
 * the closing quote. A NUL ends the string, as in bash; a code point that is not a character
 * (a surrogate, beyond U+10FFFF) is left out, since bash writes no valid name with it.
 */
export function ansiC(text: string, start: number): { decoded: string; stop: number } {
  let out = "";
  let ended = false;
  let j = start;
  const put = (code: number) => {
    if (code === 0) ended = true;
    if (ended || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return;
    out += String.fromCodePoint(code);
  };
  for (; j < text.length && text[j] !== "'"; j++) {
    const d = text[j] as string;
    const n = text[j + 1];
    if (d !== "\\" || n === undefined) {
      if (!ended) out += d;
      continue;
    }
    j++;
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) {
      if (!ended) out += simple;
      continue;
    }
    const hex = { x: 2, u: 4, U: 8 }[n as "x" | "u" | "U"];
    if (hex !== undefined) {
      const h = digits(text, j + 1, hex, /[0-9A-Fa-f]/);
      if (h === "") {
        if (!ended) out += `\\${n}`;
        continue;
      }
      put(parseInt(h, 16));
      j += h.length;
      continue;
    }
    if (/[0-7]/.test(n)) {
      const o = digits(text, j, 3, /[0-7]/);
      put(parseInt(o, 8) & 0xff);
      j += o.length - 1;
      continue;
    }
    if (n === "c" && j + 1 < text.length) {
      j++;
      // Bash makes `\c?` DEL; every other character keeps its low five bits.
      const c = text[j] as string;
      put(c === "?" ? 0x7f : c.charCodeAt(0) & 0x1f);
      continue;
    }
    if (!ended) out += `\\${n}`;
  }
  return { decoded: out, stop: j };
}
