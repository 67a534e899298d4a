import type { Platform } from "../types.js";
import type { PathPattern, PathResolver } from "./api.js";
import type { CompiledPathPattern } from "./pattern.js";
import { preparePath } from "./prepared.js";

// An ordered list of patterns that answers "which is the FIRST to match?" without testing every
// pattern: `**/NAME` patterns are looked up by the path's last name, `**/a/b/**` patterns by any
// of its names, so adding name patterns costs (almost) nothing per path. Everything else (anchored
// patterns, names that start with a wildcard) is tested in order, as before.

export interface PatternSet {
  readonly patterns: readonly PathPattern[];
  /** The first pattern (in list order) matching `absolute`, or undefined. */
  first(absolute: string, resolver?: PathResolver): PathPattern | undefined;
  /**
   * The first pattern (in list order) that could match a path strictly below the folder
   * `absolute` because of that folder (CompiledPathPattern.below). Tests every pattern: it is
   * asked only for moves and removals, which are rare.
   */
  firstBelow(absolute: string, resolver?: PathResolver, anchoredOnly?: boolean): PathPattern | undefined;
}

function push(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

export function createPatternSet(patterns: readonly PathPattern[], platform: Platform): PatternSet {
  const always: number[] = [];
  const byLast = new Map<string, number[]>();
  const byAny = new Map<string, number[]>();
  patterns.forEach((p, i) => {
    const c = p as Partial<CompiledPathPattern>;
    if (c.inert !== undefined) return; // matches nothing here
    if (c.form === "name" && c.lastLiteral !== undefined) push(byLast, c.lastLiteral, i);
    else if (c.form === "name-subtree" && c.firstLiteral !== undefined) push(byAny, c.firstLiteral, i);
    else always.push(i);
  });
  return {
    patterns,
    first(absolute: string, resolver?: PathResolver): PathPattern | undefined {
      const segs = preparePath(absolute, platform).segments;
      let candidates: number[] = always;
      const last = segs.length > 0 ? byLast.get(segs[segs.length - 1] as string) : undefined;
      let extra: number[] | undefined = last;
      if (byAny.size > 0) {
        for (const s of segs) {
          const hit = byAny.get(s);
          if (hit) extra = extra ? extra.concat(hit) : hit;
        }
      }
      if (extra) candidates = always.concat(extra).sort((a, b) => a - b);
      let previous = -1;
      for (const i of candidates) {
        if (i === previous) continue; // a name repeated in the path
        previous = i;
        const p = patterns[i] as PathPattern;
        if (p.test(absolute, resolver)) return p;
      }
      return undefined;
    },
    firstBelow(absolute: string, resolver?: PathResolver, anchoredOnly = false): PathPattern | undefined {
      return patterns.find((p) => {
        const c = p as Partial<CompiledPathPattern>;
        if (anchoredOnly && (c.form === "name" || c.form === "name-subtree")) return false;
        return c.below?.(absolute, resolver) === true;
      });
    },
  };
}
