// Which server frames the `--url` bridge wrote is known by position, never by content (0114).
import { describe, expect, it } from "vitest";
import { BridgeLines } from "../../../src/relay/session/bridge-lines.js";

const takeAll = (b: BridgeLines, n: number): boolean[] => Array.from({ length: n }, () => b.take());

describe("BridgeLines", () => {
  it("marks exactly the frames at the positions the endpoint gave, once each", () => {
    const b = new BridgeLines();
    b.add([1, 3]);
    expect(takeAll(b, 5)).toEqual([false, true, false, true, false]);
  });

  it("keeps a mark that comes before its line's chunk, and counts the frames read meanwhile", () => {
    const b = new BridgeLines();
    expect(takeAll(b, 2)).toEqual([false, false]);
    b.add([4]);
    expect(takeAll(b, 3)).toEqual([false, false, true]);
  });

  it("never marks a frame whose position has passed", () => {
    const b = new BridgeLines();
    expect(takeAll(b, 3)).toEqual([false, false, false]);
    b.add([1]);
    expect(takeAll(b, 3)).toEqual([false, false, false]);
  });
});
