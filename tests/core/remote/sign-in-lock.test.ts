import { describe, expect, it } from "vitest";
import { lockIsStale, readLockHolder } from "../../../src/core/remote/sign-in-lock.js";

describe("lockIsStale", () => {
  const live = { now: 10_000, timeoutMs: 5_000, alive: () => true };
  it("keeps a young lock of a live process", () => {
    expect(lockIsStale({ pid: 7, since: 9_000 }, live)).toBe(false);
    expect(lockIsStale({ pid: 7, since: 5_000 }, live)).toBe(false); // exactly the timeout
  });
  it("drops a lock older than the timeout, of a gone process, or unreadable", () => {
    expect(lockIsStale({ pid: 7, since: 4_999 }, live)).toBe(true);
    expect(lockIsStale({ pid: 7, since: 9_000 }, { ...live, alive: () => false })).toBe(true);
    expect(lockIsStale(undefined, live)).toBe(true);
  });
  it("reads only a positive integer pid and a finite time", () => {
    expect(readLockHolder('{"pid":12,"since":3}')).toEqual({ pid: 12, since: 3 });
    for (const t of [
      '{"pid":0,"since":3}',
      '{"pid":1.5,"since":3}',
      '{"pid":"12","since":3}',
      '{"pid":12}',
      "[]",
      "null",
      '{"pid":12,"since":1e999}',
      "x",
    ])
      expect(readLockHolder(t), t).toBeUndefined();
  });
});
