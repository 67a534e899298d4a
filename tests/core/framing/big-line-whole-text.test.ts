// Units behind defect 5 of the observe hunt (docs/decisions/0066): a big line's text is cut for
// reading, so the tests the relay makes of a frame's text (does it look like a judged call, is
// there a CR inside) are made of its whole text as it streams past, and must say what they say
// of the whole text at once.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BigLine } from "../../../src/core/framing/big-line.js";
import { JudgedCallWatch, looksLikeJudgedCall } from "../../../src/core/wire/judged-call-text.js";
import { inPieces } from "../../helpers/json-cut.js";
import { cut } from "../../relay/cut.js";

describe("JudgedCallWatch", () => {
  const unit = fc.constantFrom(
    ...'tools/call resources/read prompts/get TOOLS\\u0074\\x74\\u{74}\\/\\ \n\r\t ab_.{}"'.split(""),
    "tools",
    "call",
    "\\u0074",
    "\\u{0074}",
    "\\x74",
    "\\",
    "   ",
  );
  const textArb = fc.array(unit, { maxLength: 40 }).map((a) => a.join(""));

  it("says of a text in any pieces what looksLikeJudgedCall says of it whole", () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.nat(), { maxLength: 8 }), (text, offsets) => {
        const watch = new JudgedCallWatch();
        const found = inPieces(
          { add: (p: string) => watch.add(p), finish: () => watch.found() },
          text,
          offsets,
        );
        expect(found).toBe(looksLikeJudgedCall(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("finds a call spelled with escapes and spaces across pieces", () => {
    const watch = new JudgedCallWatch();
    for (const p of ['{"method":"\\u00', "74ools", "/ ", "  \\x63all", '"}']) watch.add(p);
    expect(watch.found()).toBe(true);
  });
});

describe("a big line", () => {
  it("says whether its whole text looks like a judged call, the part cut away included", () => {
    const line = new BigLine({ headBytes: 4, keepChars: 100, keepText: 10, watchCalls: true });
    const text = `{"jsonrpc":"2.0","id":5,"params":{"x":[${"1,".repeat(100)}]},"method":"tools/call"}`;
    line.add(Buffer.from(text));
    const big = line.finish(false);
    expect(big.text).not.toContain("tools/call");
    expect(big.looksJudged).toBe(true);
  });

  const bytesArb = fc.array(fc.constantFrom(0x0d, 0x61, 0x7b, 0xc3, 0xa9), { maxLength: 30 });

  it("says whether its whole frame holds a CR inside, however it arrives", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (bytes, offsets, eof) => {
        const frame = Buffer.from(bytes);
        const line = new BigLine({ headBytes: 4, keepChars: 100, keepText: 100 });
        for (const c of cut(frame, offsets)) line.add(c);
        const big = line.finish(eof);
        // With an LF after it, a last CR is the terminator's; at the end of the stream it is text.
        const text = eof || frame.at(-1) !== 0x0d ? frame : frame.subarray(0, -1);
        expect(big.crInside).toBe(/\r(?!$)/.test(text.toString("utf8")));
      }),
      { numRuns: 2000 },
    );
  });
});
