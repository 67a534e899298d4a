// Name globs (tool names, server names, variable names), matched without regard to case so
// that `*exec*` catches `Execute_Command` and `*fetch*` catches `WebFetch`.
//
// Cost: a list is compiled once into a hash of its literal names plus ONE regular expression
// for the rest, each glob a capture group in list order. A lookup is a hash probe and a single
// regex run instead of one test per glob, and the first group that took part is the first glob
// of the list that matches (alternation is ordered and the regex is anchored at both ends).
import micromatch from "micromatch";

// `bash` makes a single `*` cross `/` too: a tool name is a name, not a path, and `a/exec`
// must not slip past `*exec*`. `dot` lets `*` match a leading dot.
const OPTIONS = { nocase: true, dot: true, bash: true } as const;
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;

/** Why `glob` cannot be used, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob.trim() === "") return "a non-empty glob";
  if (glob.startsWith("!"))
    return "a glob without a leading ! (negation is not supported: list what to match)";
  if (glob !== glob.trim()) return "a glob without leading or trailing spaces";
  try {
    micromatch.makeRe(glob, OPTIONS);
  } catch {
    return "a well-formed glob";
  }
  return undefined;
}

export class GlobSet {
  readonly globs: readonly string[];
  private readonly literal = new Map<string, number>();
  private readonly regex: RegExp | undefined;
  /** For each capture group of `regex`, the index of the glob it belongs to (or -1). */
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
      const source = micromatch.makeRe(glob, OPTIONS).source;
      // Groups inside picomatch's own source shift our numbering; count them to keep owners right.
      const inner = (new RegExp(`${source}|`).exec("")?.length ?? 1) - 1;
      this.groupOwner.push(index);
      for (let i = 0; i < inner; i += 1) this.groupOwner.push(-1);
      parts.push(`(${source})`);
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
        if (owner !== undefined && owner >= 0 && m[g] !== undefined) {
          if (best === undefined || owner < best) best = owner;
          break;
        }
      }
    }
    return best === undefined ? undefined : this.globs[best];
  }
}
