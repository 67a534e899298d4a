// Wildcards inside ONE path segment: `*` (any run, also empty), `?` (one character) and
// `[…]` classes (`[abc]`, `[a-z]`, `[!x]` or `[^x]` to negate). No escapes: `\` is a Windows
// separator, and a pattern language that needs escaping gets miswritten.

/** One shape for both kinds (monomorphic property access keeps the hot loop fast). */
export interface SegmentMatcher {
  /** The folded name when the segment has no wildcard. */
  literal: string | undefined;
  re: RegExp | undefined;
  /**
   * With wildcards: the extension (from its last dot on) of the literal text after the last
   * wildcard, which every name matched ends with (`.pem` for `*.pem`, `.ps1` for `*profile.ps1`),
   * for the pattern set's index; undefined when that text holds no dot (`.env.*`, `*~`).
   */
  extension: string | undefined;
}

export type CompiledSegment = { ok: true; matcher: SegmentMatcher } | { ok: false; expected: string };

const OUTSIDE = /[.*+?^${}()|[\]\\/]/g;
const INSIDE = /[\\\][^]/g;

export function hasWildcard(text: string): boolean {
  return /[*?[]/.test(text);
}

/** Compile an already-folded segment. */
export function compileSegment(segment: string): CompiledSegment {
  if (!hasWildcard(segment))
    return { ok: true, matcher: { literal: segment, re: undefined, extension: undefined } };
  let src = "";
  /** Where the literal text after the last wildcard starts, in `chars`. */
  let tail = 0;
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === "*") {
      src += ".*";
      tail = i + 1;
    } else if (c === "?") {
      src += ".";
      tail = i + 1;
    } else if (c === "[") {
      const close = chars.indexOf("]", i + 2); // a `]` right after `[` or `[!` is a member
      if (close < 0)
        return { ok: false, expected: `a closing ] for the [ in segment ${JSON.stringify(segment)}` };
      let body = chars.slice(i + 1, close);
      let negate = false;
      if (body[0] === "!" || body[0] === "^") {
        negate = true;
        body = body.slice(1);
      }
      if (body.length === 0)
        return {
          ok: false,
          expected: `at least one character inside [] in segment ${JSON.stringify(segment)}`,
        };
      // `-` is left as written: between two members it is a range, and at either end of a JS
      // class it is a literal `-` by itself.
      const members = body.join("").replace(INSIDE, "\\$&");
      src += `[${negate ? "^" : ""}${members}]`;
      i = close;
      tail = close + 1;
    } else {
      src += c.replace(OUTSIDE, "\\$&");
    }
  }
  const literalTail = chars.slice(tail).join("");
  const dot = literalTail.lastIndexOf(".");
  const extension = dot < 0 ? undefined : literalTail.slice(dot);
  try {
    return { ok: true, matcher: { literal: undefined, re: new RegExp(`^${src}$`, "su"), extension } };
  } catch {
    return { ok: false, expected: `a valid character class in segment ${JSON.stringify(segment)}` };
  }
}

export function segmentMatches(m: SegmentMatcher, name: string): boolean {
  return m.literal !== undefined ? m.literal === name : (m.re as RegExp).test(name);
}

/** True when the segment matches every name (`*`, `**`-free runs of stars). */
export function matchesAnyName(segment: string): boolean {
  return /^\*+$/.test(segment);
}
