// Name globs (tool names, server names, variable names), matched without regard to case so
// that `*exec*` catches `Execute_Command` and `*fetch*` catches `WebFetch`.
//
// The syntax is the one docs/policy.md describes, and nothing else: `*` (any run, including `/`
// and a leading dot: a tool name is a name, not a path), `?` (one character), `[…]` (a class;
// `[!x]` or `[^x]` negates, as in path patterns) and `{a,b}` (alternatives). We translate it
// ourselves: micromatch read `[!z]` as "`!` or `z`", an unclosed `{` as "match nothing" and `\`
// as an escape, so a rule could silently mean something else than it says. Anything outside
// the syntax (`\`, `(…|…)`, an unclosed `[` or `{`, a stray `]` or `}`) is refused.
//
// Cost: a list is compiled once into a hash of its literal names plus ONE regular expression
// for the rest, each glob a capture group in list order. A lookup is a hash probe and a single
// regex run instead of one test per glob, and the first group that took part is the first glob
// of the list that matches (alternation is ordered and the regex is anchored at both ends).
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
/** Longer globs are refused, so that a glob stays a glob. */
const MAX_GLOB = 65_536;
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

type Translated = { ok: true; source: string } | { ok: false; expected: string };

/** The glob as a regular expression source (non-capturing groups only), or what was expected. */
function translate(glob: string): Translated {
  const chars = Array.from(glob);
  let i = 0;
  const fail = (expected: string): Translated => ({ ok: false, expected });

  // One alternative: inside `{…}` (depth > 0) it ends at the next `,` or `}` of its level.
  const sequence = (depth: number): Translated => {
    let src = "";
    while (i < chars.length) {
      const c = chars[i] as string;
      if (depth > 0 && (c === "," || c === "}")) break;
      i += 1;
      // Lazy: the regex is anchored at both ends, so this changes no answer, and V8 rejects a
      // list of `*name*` globs several times faster this way than with a greedy run.
      if (c === "*") src += "[\\s\\S]*?";
      else if (c === "?") src += "[\\s\\S]";
      else if (c === "[") {
        // As in path patterns: a `]` right after `[` or `[!` is a member, not the end.
        let negate = false;
        if (chars[i] === "!" || chars[i] === "^") {
          negate = true;
          i += 1;
        }
        const start = i;
        const close = chars.indexOf("]", start + 1);
        if (close < 0) return fail("a glob with every [ closed by ]");
        const members = chars.slice(start, close);
        i = close + 1;
        for (let m = 1; m + 1 < members.length; m += 1) {
          if (members[m] === "-" && (members[m - 1] as string) > (members[m + 1] as string))
            return fail("a glob whose [a-z] ranges go from low to high");
        }
        if (members.includes("[") || members.includes("\\"))
          return fail("a glob whose […] classes hold plain characters (no [ or \\ inside)");
        src += `[${negate ? "^" : ""}${members.join("").replace(/[\\\]^]/g, "\\$&")}]`;
      } else if (c === "{") {
        const alternatives: string[] = [];
        for (;;) {
          const alt = sequence(depth + 1);
          if (!alt.ok) return alt;
          alternatives.push(alt.source);
          const end = chars[i];
          i += 1;
          if (end === "}") break;
          if (end !== ",") return fail("a glob with every { closed by }");
        }
        if (alternatives.length < 2)
          return fail("a glob whose {…} lists at least two alternatives separated by ,");
        src += `(?:${alternatives.join("|")})`;
      } else if (c === "\\") return fail("a glob without \\ (there is no escaping: write [*] for a literal *)");
      else if (c === "]" || c === "}") return fail(`a glob without a stray ${c}`);
      else if (c === "(" || c === ")" || c === "|")
        return fail("a glob of *, ?, […] and {a,b} ((…|…) groups are not glob syntax)");
      else src += c.replace(REGEX_SPECIAL, "\\$&");
    }
    return { ok: true, source: src };
  };

  return sequence(0);
}

/** Why `glob` cannot be used, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob.trim() === "") return "a non-empty glob";
  if (glob.startsWith("!"))
    return "a glob without a leading ! (negation is not supported: list what to match)";
  if (glob !== glob.trim()) return "a glob without leading or trailing spaces";
  if (glob.length > MAX_GLOB) return "a well-formed glob";
  const t = translate(glob);
  return t.ok ? undefined : t.expected;
}

/** The regex source of one glob that passed globProblem(). */
function sourceOf(glob: string): string {
  const t = translate(glob);
  if (!t.ok) throw new Error(`glob ${JSON.stringify(glob)}: expected ${t.expected}`);
  return t.source;
}

export class GlobSet {
  readonly globs: readonly string[];
  private readonly literal = new Map<string, number>();
  private readonly regex: RegExp | undefined;
  /** For each capture group of `regex`, the index of the glob it belongs to. */
  private readonly groupOwner: number[] = [];

  /** `globs` must have passed globProblem(). */
  constructor(globs: readonly string[]) {
    this.globs = globs;
    const parts: string[] = [];
    globs.forEach((glob, index) => {
      if (!GLOB_CHARS.test(glob)) {
        const key = glob.toLowerCase();
        if (!this.literal.has(key)) this.literal.set(key, index);
        return;
      }
      // translate() writes non-capturing groups only: capture group g + 1 is glob index.
      this.groupOwner.push(index);
      parts.push(`(${sourceOf(glob)})`);
    });
    this.regex = parts.length > 0 ? new RegExp(`^(?:${parts.join("|")})$`, "i") : undefined;
  }

  /** The first glob (in list order) matching `name`, or undefined. */
  first(name: string): string | undefined {
    let best = this.literal.get(name.toLowerCase());
    const m = this.regex?.exec(name);
    if (m) {
      for (let g = 1; g < m.length; g += 1) {
        const owner = this.groupOwner[g - 1];
        if (owner !== undefined && m[g] !== undefined) {
          if (best === undefined || owner < best) best = owner;
          break;
        }
      }
    }
    return best === undefined ? undefined : this.globs[best];
  }
}
