// A variable reference counts as the anchor's start only at the very start of the pattern: a
// relative pattern with a variable further in is refused, not taken for an unset variable.
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";

const LINUX: PlatformProfile = { platform: "linux", home: "/home/u", env: { HOME: "/home/u" }, cwd: "/w" };
const WIN: PlatformProfile = { platform: "win32", home: "C:\\Users\\u", env: {}, cwd: "C:\\w" };

describe("leading variables", () => {
  it("refuses a relative anchor whose variable is not at its start", () => {
    for (const [body, p] of [
      ["data/$NOPE/x", LINUX],
      ["data/${NOPE}/**", LINUX],
      ["data\\%NOPE%\\x", WIN],
      ["data/$env:NOPE/x", WIN],
    ] as const) {
      const c = compilePathPattern(body, p);
      expect(c.ok, body).toBe(false);
      if (!c.ok) expect(c.expected).toMatch(/^an absolute anchor/);
    }
  });

  it("makes a pattern starting with an unset variable inert, naming the variable", () => {
    const c = compilePathPattern("$NOPE/x", LINUX);
    expect(c.ok && (c.pattern as { inert?: string }).inert).toBe("variable NOPE is not set on this machine");
  });
});
