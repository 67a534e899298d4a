// physicalPath walks `..` the way the kernel does: through the real folder a link points to.
import { describe, expect, it } from "vitest";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { hasParentStep, physicalPath } from "../../../src/core/paths/physical.js";

/** /a/link → /x/y; everything else is its own real path (undefined: "cannot say"). */
function resolver(map: Record<string, string>, asked: string[] = []): PathResolver {
  return {
    realpath(p) {
      asked.push(p);
      for (const [from, to] of Object.entries(map)) {
        if (p === from) return to;
        if (p.startsWith(`${from}/`)) return to + p.slice(from.length);
      }
      return undefined;
    },
  };
}

describe("hasParentStep", () => {
  it("finds .. as the platform reads names", () => {
    expect(hasParentStep(["a", ".."], "linux")).toBe(true);
    expect(hasParentStep(["a", ".. "], "linux")).toBe(false);
    expect(hasParentStep(["a", "..:s"], "win32")).toBe(true);
    expect(hasParentStep(["a", "..."], "win32")).toBe(false);
    expect(hasParentStep([], "linux")).toBe(false);
  });
});

describe("physicalPath", () => {
  it("leaves the real folder of a link on ..", () => {
    const asked: string[] = [];
    expect(
      physicalPath("/", ["", "a", "link", "..", "b"], "linux", resolver({ "/a/link": "/x/y" }, asked)),
    ).toBe("/x/b");
    expect(asked).toEqual(["/a/link", "/x/b"]);
  });

  it("falls back to the spelled names when the resolver cannot say", () => {
    expect(physicalPath("/", ["a", "b", "..", "c"], "linux", resolver({}))).toBe("/a/c");
    expect(physicalPath("/", ["a", ".", "", "b"], "linux", resolver({}))).toBe("/a/b");
    expect(physicalPath("/", ["..", "..", "a"], "linux", resolver({}))).toBe("/a");
    expect(physicalPath("/", ["a", ".."], "linux", resolver({}))).toBe("/");
  });

  it("asks nothing for a path ending on .., and ignores a relative answer", () => {
    const asked: string[] = [];
    expect(physicalPath("/", ["a", "l", ".."], "linux", resolver({ "/a/l": "/r/s" }, asked))).toBe("/r");
    expect(asked).toEqual(["/a/l"]);
    expect(physicalPath("/", ["a", "l", "..", "b"], "linux", resolver({ "/a/l": "rel/x" }))).toBe("/a/b");
  });

  it("reads win32 names and roots", () => {
    expect(
      physicalPath("C:", ["a", "l. ", "..", "b"], "win32", {
        realpath: (p) => (p === "C:\\a\\l" ? "D:\\r\\s" : undefined),
      }),
    ).toBe("D:\\r\\b");
    expect(physicalPath("C:", ["a", "..:x", "b"], "win32", { realpath: () => undefined })).toBe("C:\\b");
  });
});
