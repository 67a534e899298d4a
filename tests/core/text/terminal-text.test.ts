// The one escaper of untrusted text for terminals: what each style shows for backslashes,
// whitespace and hidden code points, and how one code point is written at each width.
import { describe, expect, it } from "vitest";
import { charEscape, escapeUntrusted, replaceHidden } from "../../../src/core/text/terminal-text.js";

describe("charEscape", () => {
  it.each([
    ["\u0000", "\\x00"],
    ["\u00ff", "\\xff"],
    ["\u0100", "\\u0100"],
    ["\uffff", "\\uffff"],
    ["\u{10000}", "\\u{10000}"],
    ["\u{e0041}", "\\u{e0041}"],
  ])("%j → %s", (ch, out) => {
    expect(charEscape(ch)).toBe(out);
  });
});

describe("escapeUntrusted", () => {
  it("leaves visible text alone in both styles", () => {
    for (const style of ["transcript", "diff"] as const)
      expect(escapeUntrusted("plain text é", style)).toBe("plain text é");
  });

  it("keeps backslashes and writes whitespace as code points in transcripts", () => {
    expect(escapeUntrusted("C:\\a\tb\r\n", "transcript")).toBe("C:\\a\\x09b\\x0d\\x0a");
  });

  it("doubles backslashes and names TAB, CR and LF in diffs, so a literal escape cannot pass for one", () => {
    expect(escapeUntrusted("\\x1b", "diff")).toBe("\\\\x1b");
    expect(escapeUntrusted("a\tb\rc\nd", "diff")).toBe("a\\tb\\rc\\nd");
    expect(escapeUntrusted("\u001b[2J\u{e0041}", "diff")).toBe("\\x1b[2J\\u{e0041}");
  });
});

describe("replaceHidden", () => {
  it("hands each hidden code point to the escape and keeps the rest", () => {
    expect(replaceHidden("a\u200bb\u{e0041}c", () => "?")).toBe("a?b?c");
    expect(replaceHidden("abc", () => "?")).toBe("abc");
  });
});
