import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeForTerminal as diffEscape } from "../../../src/core/pins/escape.js";
import { escapeForTerminal as transcriptEscape, terminalSafeJson } from "../../../src/core/replay/escape.js";
import { hiddenCodePoint, hiddenIn, tagged } from "../../helpers/hidden-oracle.js";

// The one escaper behind approve --diff, the relay's notices and replay, read in-process; the
// end-to-end checks are in hidden-chars-cli.test.ts.

describe("the escaper shared by approve, the relay and replay", () => {
  it("escapes the characters that hide text, readably", () => {
    const named =
      "\u00ad\u180e\u3164\u115f\u1160\uffa0\u034f\u17b4\u17b5\ufe0f\u{e0100}\ue000\u{f0000}\u0378\u206a";
    expect(transcriptEscape(`Echo text back${tagged("hi")}`)).toBe("Echo text back\\u{e0068}\\u{e0069}");
    expect(transcriptEscape(named)).toBe(
      "\\xad\\u180e\\u3164\\u115f\\u1160\\uffa0\\u034f\\u17b4\\u17b5\\ufe0f\\u{e0100}\\ue000\\u{f0000}\\u0378\\u206a",
    );
    expect(diffEscape(`a\\b${tagged("x")}\n`)).toBe("a\\\\b\\u{e0078}\\n");
    // Visible text, emoji and CJK included, is left as it is.
    expect(transcriptEscape("été 中文 😀 C:\\Users")).toBe("été 中文 😀 C:\\Users");
  });

  it("never outputs a hidden code point, for any input (every code point, then random strings)", () => {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      const out = transcriptEscape(ch);
      if (hiddenIn(out).length > 0 || hiddenIn(diffEscape(ch)).length > 0)
        throw new Error(`U+${cp.toString(16)} came out raw`);
      if (!hiddenCodePoint(cp) && ch !== "\\" && out !== ch)
        throw new Error(`U+${cp.toString(16)} was escaped`);
    }
    const anyText = fc.string({ unit: "binary", maxLength: 64 });
    fc.assert(
      fc.property(anyText, (s) => {
        expect(hiddenIn(transcriptEscape(s))).toEqual([]);
        expect(hiddenIn(diffEscape(s))).toEqual([]);
        const json = terminalSafeJson({ s });
        expect(hiddenIn(json)).toEqual([]);
        expect((JSON.parse(json) as { s: string }).s).toBe(s);
      }),
    );
  });
});
