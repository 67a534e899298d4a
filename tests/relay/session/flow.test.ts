import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { Flow, Outbound } from "../../../src/relay/session/flow.js";
import { Lane } from "../../../src/relay/session/lane.js";
import { isOffValue } from "../../../src/relay/gates/off-switch.js";

function slowSink() {
  const callbacks: Array<() => void> = [];
  const dest = new Writable({
    highWaterMark: 8,
    write(_chunk, _enc, cb) {
      callbacks.push(() => cb());
    },
  });
  return { dest, flushOne: () => callbacks.shift()?.() };
}

describe("backpressure", () => {
  it("pauses the source while the destination is full and resumes on drain", async () => {
    const source = new PassThrough();
    source.on("data", () => undefined);
    const { dest, flushOne } = slowSink();
    const out = new Outbound(dest, new Flow(source), () => undefined);
    out.write(Buffer.alloc(4));
    expect(source.isPaused()).toBe(false);
    out.write(Buffer.alloc(16));
    expect(source.isPaused()).toBe(true);
    flushOne();
    flushOne();
    await new Promise((r) => setImmediate(r));
    expect(source.isPaused()).toBe(false);
  });

  it("resumes only when every reason to wait is gone", () => {
    const source = new PassThrough();
    source.on("data", () => undefined);
    const flow = new Flow(source);
    flow.hold();
    flow.hold();
    flow.release();
    expect(source.isPaused()).toBe(true);
    flow.release();
    expect(source.isPaused()).toBe(false);
    flow.release(); // an extra release is harmless
    expect(source.isPaused()).toBe(false);
  });

  it("drops writes after the destination closed and says so once", () => {
    const dest = new PassThrough();
    const broken: unknown[] = [];
    const out = new Outbound(dest, undefined, (e) => broken.push(e));
    dest.destroy();
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        out.write("x");
        expect(out.closed).toBe(true);
        expect(out.dropped).toBe(1);
        expect(broken.length).toBe(1);
        resolve();
      });
    });
  });
});

describe("Lane", () => {
  it("runs synchronous steps at once and queues behind an asynchronous one, in order", async () => {
    const seen: string[] = [];
    const lane = new Lane((e) => seen.push(`error ${String(e)}`));
    lane.run(() => void seen.push("a"));
    expect(seen).toEqual(["a"]);
    let release: () => void = () => undefined;
    lane.run(() => new Promise<void>((r) => (release = () => (seen.push("b"), r()))));
    lane.run(() => void seen.push("c"));
    lane.run(() => {
      throw new Error("boom");
    });
    lane.run(() => void seen.push("d"));
    expect(seen).toEqual(["a"]);
    const idle = lane.whenIdle();
    release();
    await idle;
    expect(seen).toEqual(["a", "b", "c", "error Error: boom", "d"]);
  });
});

describe("EFFECTGATE_OFF values", () => {
  it("accepts only affirmative values", () => {
    for (const v of ["1", "true", "YES", " on ", "True"]) expect(isOffValue(v)).toBe(true);
    for (const v of [undefined, "", "0", "false", "no", "off", "2", "yes please"])
      expect(isOffValue(v)).toBe(false);
  });
});
