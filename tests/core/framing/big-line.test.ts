import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BigFrame, BigLineOptions } from "../../../src/core/framing/big-line.js";
import { LineSplitter, type Frame } from "../../../src/core/framing/line-splitter.js";
import { JsonStringCutter } from "../../../src/core/json/string-cut.js";
import { JsonStructureCutter } from "../../../src/core/json/structure-cut.js";
import { cut } from "../../relay/cut.js";

// What a consumer can see of a frame, in a form both kinds share.
interface View {
  text: string;
  size: number;
  eol: string;
  sha256: string;
  head: string;
}

const sha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

type Big = Omit<BigLineOptions, "keepChars" | "keepText"> & {
  after: number;
  keepChars?: number;
  keepText?: number;
};

/** Strings and structure are never cut unless a test asks for it. */
const WHOLE = Number.MAX_SAFE_INTEGER;

function run(chunks: Buffer[], options: Big | undefined): View[] {
  const big = options && { keepChars: WHOLE, keepText: WHOLE, ...options };
  const s = new LineSplitter(1024 * 1024, big);
  const out: View[] = [];
  const small = (f: Frame): void => {
    out.push({
      text: f.bytes.toString("utf8"),
      size: f.bytes.length,
      eol: f.eol,
      sha256: sha(f.bytes),
      head: f.bytes.subarray(0, big?.headBytes ?? 0).toString("base64"),
    });
  };
  const large = (f: BigFrame): void => {
    out.push({ text: f.text, size: f.size, eol: f.eol, sha256: f.sha256, head: f.head.toString("base64") });
  };
  for (const c of chunks) s.push(c, small, big ? large : undefined);
  s.end(small, big ? large : undefined);
  return out;
}

// Bytes of every value but LF, with CR and multi-byte UTF-8 (and broken UTF-8) well represented.
const byteArb = fc.oneof(
  fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a),
  fc.constantFrom(0x0d, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xef, 0xbb, 0xbf),
);
const lineArb = fc.array(byteArb, { maxLength: 60 }).map((a) => Buffer.from(a));
const streamArb = fc.record({
  lines: fc.array(fc.tuple(lineArb, fc.constantFrom("\n", "\r\n")), { maxLength: 8 }),
  last: fc.option(lineArb, { nil: undefined }),
});

describe("LineSplitter with big lines (pass-through)", () => {
  it("gives the same text, size, terminator, head and hash as whole frames, however chunked", () => {
    fc.assert(
      fc.property(
        streamArb,
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 12 }),
        ({ lines, last }, offsets, after, headBytes) => {
          const stream = Buffer.concat([
            ...lines.flatMap(([l, eol]) => [l, Buffer.from(eol)]),
            ...(last ? [last] : []),
          ]);
          // The reference: the same stream in one piece, with no line ever treated as big.
          const expected = run([stream], { after: Number.MAX_SAFE_INTEGER, headBytes });
          expect(run(cut(stream, offsets), { after, headBytes })).toEqual(expected);
        },
      ),
    );
  });

  it("lets go of a big line's bytes: 64 MiB in 64 KiB chunks comes out as one text frame", () => {
    const s = new LineSplitter(256 * 1024 * 1024, {
      after: 1024 * 1024,
      headBytes: 16,
      keepChars: WHOLE,
      keepText: WHOLE,
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const frames: BigFrame[] = [];
    const hash = createHash("sha256");
    for (let i = 0; i < 1024; i++) {
      s.push(
        chunk,
        () => expect.unreachable("no small frame"),
        (f) => frames.push(f),
      );
      hash.update(chunk);
    }
    s.push(
      Buffer.from("\r\n"),
      () => expect.unreachable("no small frame"),
      (f) => frames.push(f),
    );
    expect(frames).toHaveLength(1);
    const f = frames[0] as BigFrame;
    expect(f.size).toBe(64 * 1024 * 1024);
    expect(f.text.length).toBe(64 * 1024 * 1024);
    expect(f.eol).toBe("\r\n");
    expect(f.sha256).toBe(hash.digest("hex"));
    expect(f.head.toString()).toBe("a".repeat(16));
    expect(s.buffered).toBe(0);
  });

  it("matches whole frames on the edge cases: a CR at end of stream, a BOM, a head built from tiny chunks", () => {
    const cases = [
      Buffer.from("abc\r"), // final frame without LF: the CR belongs to the frame and its hash
      Buffer.from("x\r\nabc\r"),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n')]), // BOM kept as U+FEFF
    ];
    for (const stream of cases) {
      const expected = run([stream], { after: Number.MAX_SAFE_INTEGER, headBytes: 4 });
      expect(run(cut(stream, [1, 2, 3, 4, 5, 6, 7, 8, 9]), { after: 0, headBytes: 4 })).toEqual(expected);
      // Uneven pieces: the head must stop at exactly headBytes however the first chunks fall.
      expect(run(cut(stream, [2, 5]), { after: 0, headBytes: 4 })).toEqual(expected);
    }
    const bom = run([Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ab\n")])], {
      after: 0,
      headBytes: 4,
    });
    expect(bom[0]?.text).toBe("\ufeffab");
  });

  it("cuts the strings and structure of a big line only, as the cutters do on the whole line's text", () => {
    // JSON-ish lines: quotes, escapes and controls next to plain letters and the CR of a CRLF.
    const jsonByteArb = fc.oneof(
      fc.constantFrom(...Buffer.from('"\\u0aZ{}[],:'), 0x0d, 0x01, 0xc3, 0xa9),
      fc.integer({ min: 0x20, max: 0x7e }),
    );
    const jsonLineArb = fc.array(jsonByteArb, { maxLength: 60 }).map((a) => Buffer.from(a));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(jsonLineArb, fc.constantFrom("\n", "\r\n")), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 30 }),
        (lines, offsets, after, keepChars, keepText) => {
          const stream = Buffer.concat(lines.flatMap(([l, eol]) => [l, Buffer.from(eol)]));
          const whole = run([stream], { after: WHOLE, headBytes: 4 });
          const s = new LineSplitter(1024 * 1024, { after, headBytes: 4, keepChars, keepText });
          const got: Array<{ text: string; sha256: string; cut?: unknown }> = [];
          const small = (f: Frame): void =>
            void got.push({ text: f.bytes.toString("utf8"), sha256: sha(f.bytes) });
          const large = (f: BigFrame): void => void got.push({ text: f.text, sha256: f.sha256, cut: f.cut });
          for (const c of cut(stream, offsets)) s.push(c, small, large);
          s.end(small, large);
          expect(got.map((g) => g.sha256)).toEqual(whole.map((w) => w.sha256));
          for (const [i, g] of got.entries()) {
            const text = (whole[i] as View).text;
            if (!("cut" in g)) expect(g.text).toBe(text);
            else {
              const strings = new JsonStringCutter(keepChars);
              strings.add(text);
              const shortened = strings.finish();
              const structure = new JsonStructureCutter(keepText);
              structure.add(shortened.text);
              const { text: kept, cut: dropped } = structure.finish();
              expect(g.text).toBe(kept);
              const expected =
                shortened.cut || dropped
                  ? {
                      strings: shortened.cut?.strings ?? 0,
                      containers: dropped?.containers ?? 0,
                      chars: (shortened.cut?.chars ?? 0) + (dropped?.chars ?? 0),
                    }
                  : undefined;
              expect(g.cut).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("holds only the kept part of a 64 MiB argument: a call's content cut past the judge's budget", () => {
    const keepChars = 8 * 1024 * 1024 + 1;
    const s = new LineSplitter(256 * 1024 * 1024, {
      after: 1024 * 1024,
      headBytes: 64,
      keepChars,
      keepText: WHOLE,
    });
    const open = Buffer.from(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"/tmp/x","content":"',
    );
    const close = Buffer.from('"}}}\r\n');
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const frames: BigFrame[] = [];
    const onBig = (f: BigFrame): void => void frames.push(f);
    s.push(open, () => expect.unreachable("no small frame"), onBig);
    for (let i = 0; i < 1024; i++) s.push(chunk, () => expect.unreachable("no small frame"), onBig);
    s.push(close, () => expect.unreachable("no small frame"), onBig);
    expect(frames).toHaveLength(1);
    const f = frames[0] as BigFrame;
    expect(f.size).toBe(open.length + 64 * 1024 * 1024 + close.length - 2);
    expect(f.eol).toBe("\r\n");
    expect(f.cut).toEqual({ strings: 1, containers: 0, chars: 64 * 1024 * 1024 - keepChars });
    const value = JSON.parse(f.text) as { id: number; params: { arguments: { content: string } } };
    expect(value.id).toBe(7);
    expect(value.params.arguments.content).toBe("a".repeat(keepChars));
  });

  it("cuts the structure of a big line whose strings are all short, and says so", () => {
    const s = new LineSplitter(1024 * 1024, { after: 8, headBytes: 4, keepChars: 100, keepText: 30 });
    const line = `{"id":1,"result":{"content":[${'"ab",'.repeat(20)}"ab"]}}`;
    const frames: BigFrame[] = [];
    // Waiting for its newline past `after` bytes is what makes a line big.
    for (const chunk of [line, "\n"])
      s.push(
        Buffer.from(chunk),
        () => expect.unreachable("no small frame"),
        (f) => void frames.push(f),
      );
    const f = frames[0] as BigFrame;
    expect(f.cut).toEqual({ strings: 0, containers: 1, chars: line.length - f.text.length });
    expect((JSON.parse(f.text) as { result: { content: string[] } }).result.content.length).toBeLessThan(21);
  });

  it("says the structure was cut before the scan's budget when the other text ran out first", () => {
    // `params` is text the content scan never reads: cutting it leaves the scan's part whole.
    const line = `{"id":1,"result":{"text":"ab"},"params":{"list":[${"7,".repeat(40)}7]}}`;
    const frameOf = (scan: number, keepText: number): BigFrame => {
      const s = new LineSplitter(1024 * 1024, {
        after: 8,
        headBytes: 4,
        keepChars: 100,
        keepText,
        structure: { keepLevels: 1, scan: { chars: scan } },
      });
      const frames: BigFrame[] = [];
      for (const chunk of [line, "\n"])
        s.push(
          Buffer.from(chunk),
          () => expect.unreachable("no small frame"),
          (f) => void frames.push(f),
        );
      return frames[0] as BigFrame;
    };
    const early = frameOf(1000, 30);
    expect(early.cut).toEqual({
      strings: 0,
      containers: 1,
      chars: line.length - early.text.length,
      beforeScan: true,
    });
    // Cut because the scan's budget was used up: not before it.
    const late = frameOf(0, WHOLE);
    expect(late.cut?.containers).toBe(1);
    expect(late.cut?.beforeScan).toBeUndefined();
  });

  it("treats a line as big only once more than `after` of its bytes wait for a newline", () => {
    const seen = (chunks: string[]): string[] => {
      const s = new LineSplitter(1024, { after: 10, headBytes: 4, keepChars: 1, keepText: WHOLE });
      const out: string[] = [];
      const small = (f: Frame): void => void out.push(`small ${f.bytes.toString()}`);
      const large = (f: BigFrame): void => void out.push(`big ${f.text}`);
      for (const c of chunks) s.push(Buffer.from(c), small, large);
      s.end(small, large);
      return out;
    };
    expect(seen(['"123456789', '0"\n'])).toEqual(['small "1234567890"']); // 10 bytes waited
    expect(seen(['"1234567890', '"\n'])).toEqual(['big "1"']); // 11 bytes waited
    expect(seen(['"1234567890"\n'])).toEqual(['small "1234567890"']); // never waited
    expect(seen(['"1234567890'])).toEqual(['big "1']); // ended without a newline
  });

  it("without a big-frame callback, lines stay bytes whatever their size", () => {
    const s = new LineSplitter(1024, { after: 4, headBytes: 2, keepChars: 1, keepText: WHOLE });
    const got: Frame[] = [];
    s.push(Buffer.from("0123456789\n"), (f) => got.push(f));
    expect(got.map((f) => f.bytes.toString())).toEqual(["0123456789"]);
  });
});
