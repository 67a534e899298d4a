import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter, type Frame } from "../../../src/core/framing/line-splitter.js";
import { cut } from "../../relay/cut.js";

interface Seen {
  text: string;
  eol: string;
  raw: string;
}

function run(chunks: Buffer[]): Seen[] {
  const s = new LineSplitter();
  const out: Seen[] = [];
  const emit = (f: Frame): void => {
    out.push({ text: f.bytes.toString("latin1"), eol: f.eol, raw: f.raw.toString("latin1") });
  };
  for (const c of chunks) s.push(c, emit);
  s.end(emit);
  return out;
}

// Lines are made of bytes that include CR and every other value except LF.
const lineArb = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a.filter((b) => b !== 0x0a)));
const eolArb = fc.constantFrom("\n", "\r\n");
const streamArb = fc.record({
  lines: fc.array(fc.tuple(lineArb, eolArb), { maxLength: 20 }),
  last: fc.option(lineArb, { nil: undefined }),
});

describe("LineSplitter", () => {
  it("reads a line of only CR LF as an empty line ended by CR LF", () => {
    expect(run([Buffer.from("\r\n")])).toEqual([{ text: "", eol: "\r\n", raw: "\r\n" }]);
    expect(run([Buffer.from("\r"), Buffer.from("\n")])).toEqual([{ text: "", eol: "\r\n", raw: "\r\n" }]);
  });

  it("gives a trailing line without LF once, however often end is called", () => {
    const s = new LineSplitter();
    const out: string[] = [];
    const emit = (f: Frame): void => void out.push(f.raw.toString("latin1"));
    s.push(Buffer.from("a\ntail"), emit);
    s.end(emit);
    s.end(emit);
    expect(out).toEqual(["a\n", "tail"]);
  });

  it("gives the same frames however the stream is chunked", () => {
    fc.assert(
      fc.property(streamArb, fc.array(fc.nat(), { maxLength: 30 }), ({ lines, last }, offsets) => {
        const bytes = Buffer.concat([
          ...lines.map(([l, e]) => Buffer.concat([l, Buffer.from(e)])),
          last ?? Buffer.alloc(0),
        ]);
        const whole = run([bytes]);
        expect(run(cut(bytes, offsets))).toEqual(whole);
        // Byte by byte, too.
        expect(run([...bytes].map((b) => Buffer.from([b])))).toEqual(whole);
        // The raw frames put back together are the stream, byte for byte.
        expect(Buffer.from(whole.map((f) => f.raw).join(""), "latin1").equals(bytes)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("reports each line's own terminator and keeps empty lines", () => {
    const frames = run([Buffer.from('{"a":1}\r\n\n{"b":2}\nlast')]);
    expect(frames).toEqual([
      { text: '{"a":1}', eol: "\r\n", raw: '{"a":1}\r\n' },
      { text: "", eol: "\n", raw: "\n" },
      { text: '{"b":2}', eol: "\n", raw: '{"b":2}\n' },
      { text: "last", eol: "", raw: "last" },
    ]);
  });

  it("treats a CR split from its LF by a chunk boundary as part of the terminator", () => {
    expect(run([Buffer.from("abc\r"), Buffer.from("\nx\n")])).toEqual([
      { text: "abc", eol: "\r\n", raw: "abc\r\n" },
      { text: "x", eol: "\n", raw: "x\n" },
    ]);
  });

  it("keeps a lone CR inside a line", () => {
    expect(run([Buffer.from("a\rb\n")])[0]?.text).toBe("a\rb");
  });

  it("joins a 64 MiB frame that arrives in 64 KiB chunks", () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const s = new LineSplitter();
    const frames: Frame[] = [];
    for (let i = 0; i < 1024; i++) s.push(chunk, (f) => frames.push(f));
    expect(s.buffered).toBe(64 * 1024 * 1024);
    s.push(Buffer.from("\n{}\n"), (f) => frames.push(f));
    expect(frames.map((f) => f.bytes.length)).toEqual([64 * 1024 * 1024, 2]);
    expect(s.buffered).toBe(0);
  });
});

describe("LineSplitter size limit", () => {
  it("gives up on a line longer than the limit and emits nothing after it", () => {
    const s = new LineSplitter(10);
    const frames: string[] = [];
    const emit = (f: Frame): void => void frames.push(f.bytes.toString());
    expect(s.push(Buffer.from("short\n0123456"), emit)).toBe(true);
    expect(s.push(Buffer.from("789abc"), emit)).toBe(false);
    expect(s.overflow).toBe(true);
    expect(s.buffered).toBe(0);
    expect(s.push(Buffer.from("\nnext\n"), emit)).toBe(false);
    s.end(emit);
    expect(frames).toEqual(["short"]);
  });
});
