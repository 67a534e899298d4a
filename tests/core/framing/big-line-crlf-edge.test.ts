// Unit behind defect 9 of the observe hunt: a line of exactly the big-line size (16 MiB in the
// relay) ending in CRLF is kept whole when its CR arrives before its LF, as the same line ending
// in LF is, so observe logs it whole as enforce does (docs/decisions/0066).
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../../../src/core/framing/line-splitter.js";

describe("a line of exactly the big-line size", () => {
  const run = (chunks: string[]) => {
    const s = new LineSplitter(1024, { after: 8, headBytes: 4, keepChars: 100, keepText: 100 });
    const kinds: string[] = [];
    for (const c of chunks)
      s.push(
        Buffer.from(c),
        (f) => kinds.push(`whole ${f.bytes.toString()} ${JSON.stringify(f.eol)}`),
        (f) => kinds.push(`big ${f.text} ${JSON.stringify(f.eol)}`),
      );
    return kinds;
  };

  it("is kept whole when its CRLF's CR arrives before the LF", () => {
    expect(run(["12345678\r", "\n"])).toEqual(['whole 12345678 "\\r\\n"']);
    expect(run(["12345678", "\r", "\n"])).toEqual(['whole 12345678 "\\r\\n"']);
  });

  it("is big once a byte more than the size has come, a CR inside included", () => {
    expect(run(["12345678\r", "9", "\n"])).toEqual(['big 12345678\r9 "\\n"']);
    expect(run(["123456789", "\r\n"])).toEqual(['big 123456789 "\\r\\n"']);
  });
});
