import { describe, expect, it } from "vitest";
import { inWorkdir, isRelativeWord } from "../../../src/core/shell/workdir.js";

// A relative word spelled inside the folder it is run in, with that folder's own separator.

describe("inWorkdir", () => {
  it("joins with a backslash only a folder spelled with backslashes alone", () => {
    expect(inWorkdir("C:\\work", "a")).toBe("C:\\work\\a");
    expect(inWorkdir("/work", "a")).toBe("/work/a");
    expect(inWorkdir("C:\\work/sub", "a")).toBe("C:\\work/sub/a");
    expect(inWorkdir("work", "a")).toBe("work/a");
  });

  it("drops every separator the folder ends with", () => {
    expect(inWorkdir("/work//", "a")).toBe("/work/a");
    expect(inWorkdir("C:\\work\\\\", "a")).toBe("C:\\work\\a");
    expect(inWorkdir("/", "a")).toBe("/a");
  });
});

describe("isRelativeWord", () => {
  it("tells words that depend on the folder from those that do not", () => {
    expect(["a", "./a", "../a"].map(isRelativeWord)).toEqual([true, true, true]);
    expect(["/a", "\\a", "~/a", "$HOME/a", "%TEMP%\\a", "C:a"].map(isRelativeWord)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
