import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PathPattern } from "../../../src/core/paths/api.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { createPatternSet } from "../../../src/core/paths/pattern-set.js";
import { fakeResolver, LINUX, WIN32 } from "../../helpers/profiles.js";

const NAMES = [
  ".env",
  ".ssh",
  "id_rsa",
  "hooks",
  ".git",
  "config",
  "a",
  "b",
  "x.sh",
  "Makefile",
  "%APPDATA%",
];
const BODIES = [
  "~/.ssh/**",
  "~/.bashrc",
  "/etc/**",
  "**/.env",
  "**/*.sh",
  "**/.git/hooks/**",
  "**/.git/config",
  "**/config",
  "**/a/b",
  "**/a/**",
  "**/b/a/**",
  "**/id_rsa",
  "**/Makefile",
  "%APPDATA%/x/**",
  "/home/u/a/**",
  "**/[ab]",
];

function compileAll(bodies: string[]): PathPattern[] {
  return bodies.map((b) => {
    const c = compilePathPattern(b, LINUX);
    if (!c.ok) throw new Error(b);
    return c.pattern;
  });
}

describe("createPatternSet", () => {
  it("answers exactly like a linear scan, in list order", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(BODIES, { minLength: 1 }),
        fc.array(fc.constantFrom(...NAMES, "home", "u", "etc"), { maxLength: 7 }),
        (bodies, segs) => {
          const pats = compileAll(bodies);
          const set = createPatternSet(pats, LINUX.platform);
          const path = "/" + segs.join("/");
          expect(set.first(path)?.body).toBe(pats.find((p) => p.test(path))?.body);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("passes the resolver to anchored patterns", () => {
    const pats = compileAll(["**/.env", "~/.ssh/**"]);
    const set = createPatternSet(pats, LINUX.platform);
    const r = fakeResolver({ "/home/u/.ssh": "/keys" });
    expect(set.first("/keys/id_rsa")).toBeUndefined();
    expect(set.first("/keys/id_rsa", r)?.body).toBe("~/.ssh/**");
  });

  it("folds on win32 before looking names up", () => {
    const pats = ["**/.ENV", "**/.Git/Hooks/**"].map((b) => {
      const c = compilePathPattern(b, WIN32);
      if (!c.ok) throw new Error(b);
      return c.pattern;
    });
    const set = createPatternSet(pats, WIN32.platform);
    expect(set.first("C:\\app\\.env")?.body).toBe("**/.ENV");
    expect(set.first("C:\\r\\.git\\HOOKS\\x")?.body).toBe("**/.Git/Hooks/**");
    expect(set.first("C:\\r\\.git\\x")).toBeUndefined();
  });
});

/** How many times the wrapped patterns were tested: a cost, counted rather than timed. */
let calls = 0;
const counted = (p: PathPattern): PathPattern => ({
  ...p,
  test: (a, r) => {
    calls++;
    return p.test(a, r);
  },
});

describe("cost of name patterns", () => {
  // Counted, not timed: a path meets only the name patterns indexed under its own names.
  it("tests only the indexed candidates, however many literal name patterns there are", () => {
    for (const n of [10, 100, 1000]) {
      const bodies = Array.from({ length: n }, (_, i) => `**/secret-${i}.txt`);
      bodies.push("**/.git/hooks/**", "~/.ssh/**", "**/*.pem");
      const set = createPatternSet(compileAll(bodies).map(counted), LINUX.platform);
      calls = 0;
      expect(set.first("/srv/a/secret-7.txt")?.body).toBe("**/secret-7.txt");
      expect(set.first("/srv/a/b/c.txt")).toBeUndefined();
      expect(set.first("/r/.git/hooks/x")?.body).toBe("**/.git/hooks/**");
      // 2 unindexed patterns per path (~/.ssh/**, **/*.pem) plus the indexed hits.
      expect(calls).toBeLessThanOrEqual(3 * 2 + 2);
    }
  });
});

describe("cost of anchored patterns", () => {
  // Counted, not timed: a path meets only the anchored patterns whose anchor is a prefix of it.
  it("tests only the anchors on the path's way, however many anchored patterns there are", () => {
    for (const n of [10, 100, 1000]) {
      const bodies = Array.from({ length: n }, (_, i) => `~/.config/app-${i}/**`);
      bodies.push("~/.ssh/**", "~/.bashrc", "/etc/**");
      const set = createPatternSet(compileAll(bodies).map(counted), "linux");
      calls = 0;
      expect(set.first("/home/u/.config/app-7/settings.json")?.body).toBe("~/.config/app-7/**");
      expect(set.first("/home/u/project/src/index.ts")).toBeUndefined();
      expect(set.first("/home/u/.ssh/id_rsa")?.body).toBe("~/.ssh/**");
      expect(calls).toBe(2);
    }
  });
});
