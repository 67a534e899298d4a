import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { DARWIN, LINUX, WIN32 } from "../../helpers/profiles.js";

const PROFILES: PlatformProfile[] = [LINUX, DARWIN, WIN32];

// Any string at all: the canonicaliser and the pattern compiler answer, they never throw.
const anyText = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({
    unit: fc.constantFrom(
      "/",
      "\\",
      ".",
      ":",
      "~",
      "$",
      "%",
      "*",
      "?",
      "[",
      "]",
      " ",
      "a",
      "C",
      "\u0000",
      "\uD800",
    ),
  }),
);

describe("never throws", () => {
  it.each(PROFILES.map((p) => [p.platform, p] as const))("on %s", (_n, profile) => {
    fc.assert(
      fc.property(anyText, (s) => {
        const c = canonicalise(s, profile, LEXICAL_ONLY);
        if (c.ok) expect(c.lexical.length).toBeGreaterThan(0);
        else expect(c.error).toMatch(/expected/);
        const p = compilePathPattern(s, profile);
        if (p.ok) expect(typeof p.pattern.test(profile.cwd)).toBe("boolean");
        else expect(p.expected).toContain("allowed forms");
      }),
      { numRuns: 1500 },
    );
  });
});

// A canonical path canonicalises to itself (no hidden second pass changes it), except as noted.
const name = fc.string({
  unit: fc.constantFrom("a", "B", ".", "-", "_", " ", "é", "e\u0301", "~"),
  minLength: 1,
  maxLength: 6,
});

describe("idempotent", () => {
  it.each(PROFILES.map((p) => [p.platform, p] as const))("on %s", (_n, profile) => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 6 }), fc.boolean(), (segs, absolute) => {
        const sep = profile.platform === "win32" ? "\\" : "/";
        const input = (absolute ? (profile.platform === "win32" ? "D:\\" : "/") : "") + segs.join(sep);
        const first = canonicalise(input, profile, LEXICAL_ONLY);
        fc.pre(first.ok);
        if (!first.ok) return;
        // Surrounding whitespace is trimmed on input (0010), so a name ending in a space is not a fixed point.
        fc.pre(first.lexical === first.lexical.trim());
        const second = canonicalise(first.lexical, profile, LEXICAL_ONLY);
        expect(second.ok && second.lexical, input).toBe(first.lexical);
      }),
      { numRuns: 1500 },
    );
  });
});
