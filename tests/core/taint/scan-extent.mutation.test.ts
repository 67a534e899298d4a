// The guard behind issue 17, breach 3: every way the content scan can stop short is a partial
// scan, and the sentence the log keeps says which.
import { describe, expect, it } from "vitest";
import { partialScan, unscannedWhy } from "../../../src/core/taint/scan-extent.js";

const whole = { scanned: 10, of: 10, layersLeft: 0, revealCapped: 0, frameCut: false };

describe("partialScan", () => {
  it("is undefined only when everything was read", () => {
    expect(partialScan(whole)).toBeUndefined();
    // More read than counted cannot happen, but is no cut either.
    expect(partialScan({ ...whole, scanned: 11 })).toBeUndefined();
  });

  it("names each cut, alone", () => {
    expect(partialScan({ ...whole, scanned: 9 })).toEqual({
      scanned: 9,
      of: 10,
      layersLeft: 0,
      revealCapped: 0,
    });
    expect(partialScan({ ...whole, layersLeft: 1 })).toEqual({
      scanned: 10,
      of: 10,
      layersLeft: 1,
      revealCapped: 0,
    });
    expect(partialScan({ ...whole, revealCapped: 1 })).toEqual({
      scanned: 10,
      of: 10,
      layersLeft: 0,
      revealCapped: 1,
    });
    expect(partialScan({ ...whole, frameCut: true })).toEqual({
      scanned: 10,
      of: 10,
      layersLeft: 0,
      revealCapped: 0,
      frameCut: true,
    });
  });
});

describe("unscannedWhy", () => {
  const base = { scanned: 10, of: 10, layersLeft: 0, revealCapped: 0 };
  const tail = "; what it did not read counts as untrusted";
  it("says what was left and that it counts as untrusted", () => {
    expect(unscannedWhy({ ...base, scanned: 4, of: 9 })).toBe(
      `the content scan read 4 of 9 characters of text${tail}`,
    );
    expect(unscannedWhy({ ...base, layersLeft: 1 })).toBe(
      `the content scan left 1 decoded or hidden layer unread${tail}`,
    );
    expect(unscannedWhy({ ...base, layersLeft: 2 })).toBe(
      `the content scan left 2 decoded or hidden layers unread${tail}`,
    );
    expect(unscannedWhy({ ...base, revealCapped: 1 })).toBe(
      `the content scan stopped decoding at its caps in 1 window of text${tail}`,
    );
    expect(unscannedWhy({ ...base, revealCapped: 3 })).toBe(
      `the content scan stopped decoding at its caps in 3 windows of text${tail}`,
    );
    expect(unscannedWhy({ ...base, frameCut: true })).toBe(
      `the content scan read a frame cut for reading before the scan's share was kept${tail}`,
    );
  });

  it("lists several cuts in one sentence", () => {
    expect(unscannedWhy({ scanned: 1, of: 2, layersLeft: 1, revealCapped: 1, frameCut: true })).toBe(
      "the content scan read 1 of 2 characters of text, left 1 decoded or hidden layer unread, " +
        `stopped decoding at its caps in 1 window of text, read a frame cut for reading before the scan's share was kept${tail}`,
    );
  });
});
