/**
 * JSON parsing that refuses what JSON.parse quietly accepts: duplicate member names (JSON.parse
 * keeps the last, a server may keep the first) and nesting beyond a depth budget. Used wherever
 * a decision depends on the parsed value, so that effectgate and the server cannot read one
 * message two ways.
 */

export type StrictParse = { ok: true; value: unknown } | { ok: false; error: string };

export const DEFAULT_MAX_DEPTH = 64;

export function parseStrictJson(
  text: string,
  maxDepth = DEFAULT_MAX_DEPTH,
  /** JSON.parse, or a drop-in for it (the relay's long-string parser). */
  parse: (text: string) => unknown = JSON.parse,
): StrictParse {
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  const problem = findStructuralProblem(text, maxDepth);
  return problem === undefined ? { ok: true, value } : { ok: false, error: problem };
}

interface Level {
  keys: Set<string> | undefined; // undefined for arrays
  expectKey: boolean;
}

/** Scans text already known to be valid JSON for duplicate names and excess depth. */
function findStructuralProblem(text: string, maxDepth: number): string | undefined {
  const stack: Level[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.keys.has(key)) return `duplicate key ${JSON.stringify(key)}`;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return `nested deeper than ${maxDepth} levels`;
      stack.push({ keys: c === 0x7b ? new Set() : undefined, expectKey: c === 0x7b });
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
      i++;
    } else {
      i++;
    }
  }
  return undefined;
}

/**
 * Index of the closing quote of the JSON string opening at `start`; the text's last index when
 * the string is never closed, so a scanner over damaged text still moves forward.
 */
export function closingQuote(text: string, start: number): number {
  let j = text.indexOf('"', start + 1);
  for (;;) {
    if (j === -1) return text.length - 1;
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
}
