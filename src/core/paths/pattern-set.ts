import type { Platform } from "../types.js";
import type { PathPattern, PathResolver } from "./api.js";
import type { CompiledPathPattern } from "./pattern.js";
import { preparePath, type PreparedPath, splitPath } from "./prepared.js";

// An ordered list of patterns that answers "which is the FIRST to match?" without testing every
// pattern. `**/NAME` patterns are looked up by the path's last name, `**/*.pem` ones by its
// extension, `**/a/b/**` patterns by any of its names. Anchored patterns (`~/.ssh/**`, `~/.bashrc`) sit in a tree of their anchors'
// names, so a path meets only those whose anchor is a prefix of it. Everything else (names that
// start or end with a wildcard) is tested as before. The answer is a linear scan's: the lowest
// index that matches (tests/core/paths/pattern-set.test.ts checks that on random lists).
//
// An anchored pattern also matches under the REAL path of its anchor, which only the resolver
// knows and which may change between calls: with a resolver, every anchored pattern before the
// best match so far is still asked about its real anchor, as the linear scan asked it.

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

/** One folder of the anchor tree: the patterns anchored exactly here, and the names below. */
interface AnchorNode {
  here: number[];
  names: Map<string, AnchorNode>;
}

const node = (): AnchorNode => ({ here: [], names: new Map() });

function push(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

function child(names: Map<string, AnchorNode>, name: string): AnchorNode {
  const found = names.get(name);
  if (found !== undefined) return found;
  const made = node();
  names.set(name, made);
  return made;
}

function place(roots: Map<string, AnchorNode>, anchor: PreparedPath, index: number): void {
  let at = child(roots, anchor.root);
  for (const name of anchor.segments) at = child(at.names, name);
  at.here.push(index);
}

/** The lowest index of `group` (in list order) below `best` whose pattern matches, else `best`. */
function scan(
  patterns: readonly PathPattern[],
  group: readonly number[] | undefined,
  best: number,
  absolute: string,
  resolver: PathResolver | undefined,
): number {
  if (group === undefined) return best;
  for (const i of group) {
    if (i >= best) return best;
    if ((patterns[i] as PathPattern).test(absolute, resolver)) return i;
  }
  return best;
}

export function createPatternSet(patterns: readonly PathPattern[], platform: Platform): PatternSet {
  const always: number[] = [];
  const byLast = new Map<string, number[]>();
  const byExtension = new Map<string, number[]>();
  const byAny = new Map<string, number[]>();
  const roots = new Map<string, AnchorNode>();
  /** Anchored patterns in list order, and their anchors, for the question about real anchors. */
  const anchored: number[] = [];
  const anchors: string[] = [];
  patterns.forEach((p, i) => {
    const c = p as Partial<CompiledPathPattern>;
    if (c.inert !== undefined) return; // matches nothing here
    if (c.form === "name" && c.lastLiteral !== undefined) push(byLast, c.lastLiteral, i);
    else if (c.form === "name" && c.lastExtension !== undefined) push(byExtension, c.lastExtension, i);
    else if (c.form === "name-subtree" && c.firstLiteral !== undefined) push(byAny, c.firstLiteral, i);
    else if (c.anchor !== undefined && c.testReal !== undefined) {
      place(roots, splitPath(c.anchor, platform), i);
      anchored.push(i);
      anchors.push(c.anchor);
    } else always.push(i);
  });
  const none = patterns.length;
  return {
    patterns,
    first(absolute: string, resolver?: PathResolver): PathPattern | undefined {
      const prepared = preparePath(absolute, platform);
      const segs = prepared.segments;
      // Each group is in list order: it is tested up to the best match so far, and no further.
      let best = scan(patterns, always, none, absolute, resolver);
      if (segs.length > 0) {
        const last = segs[segs.length - 1] as string;
        best = scan(patterns, byLast.get(last), best, absolute, resolver);
        // `*.pem` can only match a name whose extension, from its last dot, is `.pem`.
        const dot = byExtension.size > 0 ? last.lastIndexOf(".") : -1;
        if (dot >= 0) best = scan(patterns, byExtension.get(last.slice(dot)), best, absolute, resolver);
      }
      if (byAny.size > 0) for (const s of segs) best = scan(patterns, byAny.get(s), best, absolute, resolver);
      // Anchors that are a prefix of the path: the only ones that can match it as written.
      let at = roots.get(prepared.root);
      for (let k = 0; at !== undefined; k++) {
        best = scan(patterns, at.here, best, absolute, resolver);
        at = k < segs.length ? at.names.get(segs[k] as string) : undefined;
      }
      // The real anchors: a call's snapshot knows which moved (anchor-snapshot.ts), else each
      // anchor before the best match is asked here rather than through each pattern.
      if (resolver?.movedAnchors !== undefined) {
        for (const j of resolver.movedAnchors(anchors)) {
          const i = anchored[j] as number;
          if (i >= best) break;
          if ((patterns[i] as CompiledPathPattern).testReal?.(absolute, resolver) === true) {
            best = i;
            break;
          }
        }
      } else if (resolver !== undefined)
        for (let j = 0; j < anchored.length; j++) {
          const i = anchored[j] as number;
          if (i >= best) break;
          const anchor = anchors[j] as string;
          const real = resolver.anchorRealpath ? resolver.anchorRealpath(anchor) : resolver.realpath(anchor);
          if (real === undefined || real === anchor) continue;
          if ((patterns[i] as CompiledPathPattern).testReal?.(absolute, resolver) === true) {
            best = i;
            break;
          }
        }
      return best < none ? patterns[best] : undefined;
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
