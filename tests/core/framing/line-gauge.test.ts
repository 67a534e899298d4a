// LineGauge: the relay's thread measures lines it no longer splits itself (the shadow worker does).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineGauge } from "../../../src/core/framing/line-gauge.js";
import { LineSplitter } from "../../../src/core/framing/line-splitter.js";
import { cut } from "../../relay/cut.js";

describe("LineGauge", () => {
  it("LineGauge tracks the unfinished line exactly as LineSplitter does, under any chunking", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a.map((b) => (b % 7 === 0 ? 0x0a : b)))),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 0, max: 60 }),
        (bytes, offsets, limit) => {
          const gauge = new LineGauge(limit);
          const splitter = new LineSplitter(limit);
          for (const chunk of cut(bytes, offsets)) {
            expect(gauge.push(chunk)).toBe(splitter.push(chunk, () => undefined));
            expect(gauge.overflow).toBe(splitter.overflow);
            expect(gauge.buffered).toBe(splitter.buffered);
          }
        },
      ),
    );
  });

  it("stays over the limit once a line passed it, with nothing buffered", () => {
    const gauge = new LineGauge(4);
    expect(gauge.push(Buffer.from("ab\ncd"))).toBe(true);
    expect(gauge.buffered).toBe(2);
    expect(gauge.push(Buffer.from("efg"))).toBe(false);
    expect(gauge.overflow).toBe(true);
    expect(gauge.buffered).toBe(0);
    expect(gauge.push(Buffer.from("\n"))).toBe(false);
  });
});
