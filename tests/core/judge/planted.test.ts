// Planted remembers only paths that hold a name git's discovery cares about; the quick look at
// the lower-cased string that skips the others must not skip a name folding makes one of them.
import { describe, expect, it } from "vitest";
import { Planted } from "../../../src/core/judge/planted.js";

describe("Planted", () => {
  it("remembers a path with a kept name, in any case, and forgets the rest", () => {
    const p = new Planted("linux");
    p.add("/w/repo/src/index.ts");
    expect(p.has("/w/repo")).toBe(false);
    p.add("/w/bare/HEAD");
    expect(p.has("/w/bare")).toBe(true);
    expect(p.has("/w/bare/HEAD")).toBe(true);
  });

  it("sees a kept name spelled with the Kelvin sign, which folds and lower-cases to k", () => {
    const darwin = new Planted("darwin");
    darwin.add("/w/bare/hoo\u212As/pre-commit");
    expect(darwin.has("/w/bare/hooks")).toBe(true);
    const win32 = new Planted("win32");
    win32.add("C:\\w\\bare\\hoo\u212As\\pre-commit");
    expect(win32.has("C:\\w\\bare\\hooks")).toBe(true);
  });
});
