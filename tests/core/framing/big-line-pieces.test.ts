// A big line held until it is judged keeps the pieces it came in (decision 0144): written on one
// after the other they are the line's bytes, terminator included, however the stream was chunked.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BigFrame } from "../../../src/core/framing/big-line.js";
import { LineSplitter, type Frame } from "../../../src/core/framing/line-splitter.js";
import { cut } from "../../relay/cut.js";

/** Every frame's bytes as a relay that holds lines would write them on, in order. */
function written(chunks: Buffer[], keepBytes: boolean): { out: Buffer; big: number } {
  const s = new LineSplitter(1024 * 1024, { after: 4, headBytes: 2, keepChars: 3, keepText: 8, keepBytes });
  const parts: Buffer[] = [];
  let big = 0;
  const small = (f: Frame): void => void parts.push(f.raw);
  const large = (f: BigFrame): void => {
    big++;
    expect(f.pieces, "pieces kept").toBeDefined();
    parts.push(...(f.pieces ?? []));
  };
  for (const c of chunks) s.push(c, small, large);
  s.end(small, large);
  return { out: Buffer.concat(parts), big };
}

const byteArb = fc.oneof(
  fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a),
  fc.constantFrom(0x0d, 0x22, 0x5c, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80),
);
const lineArb = fc.array(byteArb, { maxLength: 40 }).map((a) => Buffer.from(a));

describe("a big line's pieces", () => {
  it("are the stream's bytes exactly, with LF, CRLF or no terminator, however chunked", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineArb, fc.constantFrom("\n", "\r\n")), { maxLength: 6 }),
        fc.option(lineArb, { nil: undefined }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (lines, last, offsets) => {
          const stream = Buffer.concat([
            ...lines.flatMap(([l, eol]) => [l, Buffer.from(eol)]),
            ...(last ? [last] : []),
          ]);
          expect(written(cut(stream, offsets), true).out.equals(stream)).toBe(true);
        },
      ),
    );
  });

  it("are not kept in pass-through, where the bytes went on as they came", () => {
    const s = new LineSplitter(1024, { after: 4, headBytes: 2, keepChars: 3, keepText: 8 });
    const frames: BigFrame[] = [];
    // A line is big once more than `after` bytes of it wait for their end.
    for (const part of ['{"a":"long', ' string"}\n'])
      s.push(
        Buffer.from(part),
        () => expect.unreachable("big"),
        (f) => frames.push(f),
      );
    expect(frames).toHaveLength(1);
    expect(frames[0]?.pieces).toBeUndefined();
    // Read cut all the same: one reader at every level.
    expect(frames[0]?.cut).toBeDefined();
    expect(written(cut(Buffer.from('{"a":"long string"}\r\n'), [10]), true).big).toBe(1);
  });
});
