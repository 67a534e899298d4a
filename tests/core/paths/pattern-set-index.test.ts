// The indexes of a pattern set (names, anchors) must answer exactly as the linear scan they
// replaced (decision 0140): the same first pattern for any path, list, platform and resolver,
// and through one call's snapshot of the anchors (decision 0146).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PathPattern, PathResolver, PlatformProfile } from "../../../src/core/paths/api.js";
import { anchorSnapshots } from "../../../src/core/paths/anchor-snapshot.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { createPatternSet } from "../../../src/core/paths/pattern-set.js";
import { DARWIN, fakeResolver, LINUX, WIN32 } from "../../helpers/profiles.js";

// Names in several cases, so that the folding platforms meet `A` and `a` as one name.
const NAMES = [
  ".ssh",
  ".SSH",
  "id_rsa",
  ".git",
  "hooks",
  "Hooks",
  "config",
  "a",
  "B",
  "b",
  "x.sh",
  "a.x.SH",
  "x.",
  "{a,b}",
  "é",
  "e\u0301",
];
// Segments of name patterns: literals and every wildcard form inside one segment.
// The extension index (decision 0146) meets `*.sh`, a dot before a wildcard (`x.*`), none
// (`*sh`), several (`*.x.sh`), a class or `?` just before the tail, and a bare trailing dot.
const GLOBS = [
  ...NAMES,
  ...["*", "*.sh", "?", "?d_rsa", "[ab]", "[!a]", "[A-Z]", "{a,b}", "*.SH"],
  ...["x.*", "*sh", "*.x.sh", "[ax].sh", "*.[sx]h", "?.", "*.", "a*.sh"],
];

interface Platform {
  profile: PlatformProfile;
  sep: string;
  /** Anchors a pattern may start with; roots a path may start with; where anchors land, lexically. */
  anchors: string[];
  roots: string[];
  expanded: string[];
}

const PLATFORMS: Platform[] = [
  {
    profile: LINUX,
    sep: "/",
    anchors: ["~", "/", "/home/u", "$HOME", "/etc"],
    roots: ["/", "/home/u/", "/etc/", "/keys/"],
    expanded: ["", "/home/u", "/etc"],
  },
  {
    profile: DARWIN,
    sep: "/",
    anchors: ["~", "/", "/Users/U", "/private"],
    roots: ["/", "/Users/u/", "/USERS/u/", "/keys/"],
    expanded: ["", "/Users/u", "/Users/U", "/private"],
  },
  {
    profile: WIN32,
    sep: "\\",
    anchors: ["~", "C:", "c:", "%USERPROFILE%", "\\\\srv\\share", "D:"],
    roots: ["C:\\", "c:\\users\\U\\", "\\\\srv\\share\\", "\\\\SRV\\Share\\", "D:\\", "E:\\keys\\"],
    expanded: ["C:", "C:\\Users\\u", "c:", "D:", "\\\\srv\\share"],
  },
];

const segments = (from: string[], max: number) =>
  fc.array(fc.constantFrom(...from), { minLength: 1, maxLength: max });

/** A pattern body: anchored (a file or a subtree) or a name pattern (a sequence or a subtree). */
const body = (pl: Platform) =>
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom(...pl.anchors),
        fc.array(fc.constantFrom(...NAMES), { maxLength: 3 }),
        fc.boolean(),
      )
      .map(([anchor, names, subtree]) => [anchor, ...names].join(pl.sep) + (subtree ? `${pl.sep}**` : "")),
    fc
      .tuple(segments(GLOBS, 3), fc.boolean())
      .map(([names, subtree]) => `**/${names.join("/")}${subtree ? "/**" : ""}`),
  );

function compiled(bodies: string[], profile: PlatformProfile): PathPattern[] {
  const out: PathPattern[] = [];
  for (const b of bodies) {
    const c = compilePathPattern(b, profile);
    if (c.ok) out.push(c.pattern);
  }
  return out;
}

/** Some anchors are links elsewhere, as a symlinked `~/.ssh` is: only the resolver knows. */
function resolverFor(pl: Platform, links: Array<[string, string]>): PathResolver {
  return fakeResolver(Object.fromEntries(links), pl.sep);
}

describe("the pattern set's indexes against a linear scan", () => {
  for (const pl of PLATFORMS)
    it(`gives the same first pattern on ${pl.profile.platform}, with and without a resolver`, () => {
      const path = fc
        .tuple(
          fc.constantFrom(...pl.roots),
          fc.array(fc.constantFrom(...NAMES, "u", "Users", "users"), { maxLength: 6 }),
        )
        .map(([root, names]) => root + names.join(pl.sep));
      // A link from where an anchor lands (the resolver is asked about lexical anchors).
      const from = fc
        .tuple(fc.constantFrom(...pl.expanded), segments(NAMES, 3))
        .map(([start, names]) => [start, ...names].join(pl.sep));
      const link = fc.tuple(from, path);
      fc.assert(
        fc.property(
          fc.array(body(pl), { minLength: 1, maxLength: 24 }),
          fc.array(path, { minLength: 1, maxLength: 8 }),
          fc.array(link, { maxLength: 3 }),
          (bodies, paths, links) => {
            const patterns = compiled(bodies, pl.profile);
            const set = createPatternSet(patterns, pl.profile.platform);
            const resolver = resolverFor(pl, links);
            const snapshot = anchorSnapshots(resolver).resolver;
            // Paths at and below the links' targets, where only a real anchor can match.
            const below = links.flatMap(([, to]) => [to, `${to}${pl.sep}.ssh`, `${to}${pl.sep}a${pl.sep}b`]);
            for (const p of [...paths, ...below]) {
              expect(set.first(p)?.body).toBe(patterns.find((x) => x.test(p))?.body);
              const linear = patterns.find((x) => x.test(p, resolver))?.body;
              expect(set.first(p, resolver)?.body).toBe(linear);
              // One call's snapshot (decision 0146) answers as the resolver it stands for.
              expect(set.first(p, snapshot)?.body).toBe(linear);
            }
          },
        ),
        { numRuns: 1500 },
      );
    });

  it("finds a match through a linked anchor that the tree of anchors cannot see", () => {
    const patterns = compiled(["**/.env", "/etc/**", "~/.ssh/**", "~/.aws/**"], LINUX);
    const set = createPatternSet(patterns, "linux");
    const r = fakeResolver({ "/home/u/.aws": "/keys" });
    expect(set.first("/keys/credentials", r)?.body).toBe("~/.aws/**");
    expect(set.first("/keys/credentials")).toBeUndefined();
    // The lower index wins even when a later one matches as written.
    expect(set.first("/home/u/.aws/x/.env", r)?.body).toBe("**/.env");
  });
});
