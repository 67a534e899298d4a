/**
 * JSON as Python reads it. `json.loads` and pydantic's `model_validate_json` (the official Python
 * MCP client reads every line with it) accept the bare words `NaN`, `Infinity` and `-Infinity` as
 * numbers, and Python's `json.dumps` writes them for float NaN and infinities by default. JSON.parse
 * refuses such a line, so without this reading a server answer the Python client acts on would
 * pass the relay unread (docs/decisions/0063-every-reading-of-a-frame.md).
 */
import { randomBytes } from "node:crypto";
import { closingQuote } from "./strict-json.js";

const WORDS: ReadonlyArray<[string, number]> = [
  ["-Infinity", -Infinity],
  ["Infinity", Infinity],
  ["NaN", NaN],
];

/**
 * The value Python reads from `text`, with the non-finite words as the JavaScript numbers NaN,
 * Infinity and -Infinity; undefined when Python would not read it either (or it holds none of
 * those words, so JSON.parse's verdict stands).
 */
export function parsePythonJson(text: string): unknown {
  // Each word, outside strings, becomes a string marked with a random tag the text does not hold,
  // and the parse turns those strings back into numbers.
  let tag = randomBytes(9).toString("hex");
  while (text.includes(tag)) tag = randomBytes(9).toString("hex");
  const marks = new Map<string, number>();
  let out = "";
  let from = 0;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
      continue;
    }
    if (c !== 0x4e /* N */ && c !== 0x49 /* I */ && c !== 0x2d /* - */) continue;
    const word = WORDS.find(([w]) => text.startsWith(w, i));
    if (!word) continue;
    const mark = `${tag}${word[0]}`;
    marks.set(mark, word[1]);
    out += `${text.slice(from, i)}"${mark}"`;
    i += word[0].length - 1;
    from = i + 1;
    found = true;
  }
  if (!found) return undefined;
  out += text.slice(from);
  try {
    return JSON.parse(out, (_key, v: unknown) =>
      typeof v === "string" && v.startsWith(tag) && marks.has(v) ? marks.get(v) : v,
    );
  } catch {
    return undefined;
  }
}
