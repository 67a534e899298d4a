// The name index of a pattern set must never change an answer, including for paths whose last
// name is indexed but matches nothing.
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { createPatternSet } from "../../../src/core/paths/pattern-set.js";

const LINUX: PlatformProfile = { platform: "linux", home: "/h", env: {}, cwd: "/" };
const set = (...bodies: string[]) =>
  createPatternSet(
    bodies.map((b) => {
      const c = compilePathPattern(b, LINUX);
      if (!c.ok) throw new Error(c.expected);
      return c.pattern;
    }),
    "linux",
  );

describe("pattern set index", () => {
  it("answers undefined when an indexed name matches nothing", () => {
    const s = set("**/x/**", "**/a/.env");
    expect(s.first("/b/.env")).toBeUndefined();
    expect(s.first("/a/.env")?.body).toBe("**/a/.env");
    expect(s.first("/q/x/.env")?.body).toBe("**/x/**");
  });

  it("finds name-subtree patterns by any name and keeps list order across both indexes", () => {
    const s = set("**/k/**", "**/.env", "/r/**");
    expect(s.first("/r/k/.env")?.body).toBe("**/k/**");
    expect(s.first("/r/.env")?.body).toBe("**/.env");
    expect(s.first("/r/z")?.body).toBe("/r/**");
    expect(s.first("/z/k")?.body).toBe("**/k/**");
    expect(s.first("/z/k/k/k")?.body).toBe("**/k/**");
  });
});
