// The escaper's patterns are built when its module loads. A broken one (a flag lost, a range out
// of order) throws at import, which fails every file importing it before any test runs, and a
// mutation run counts "no test ran" as a survivor. Importing inside a test makes it a failure.
import { describe, expect, it } from "vitest";

describe("terminal-text module", () => {
  it("loads, and its patterns escape one hidden code point and keep the rest", async () => {
    const { escapeUntrusted, replaceHidden } = await import("../../../src/core/text/terminal-text.js");
    expect(escapeUntrusted("a\u0007\u{e0041}", "transcript")).toBe("a\\x07\\u{e0041}");
    expect(escapeUntrusted("a\u0007\\", "diff")).toBe("a\\x07\\\\");
    expect(replaceHidden("a\u200b", () => "?")).toBe("a?");
  });
});
