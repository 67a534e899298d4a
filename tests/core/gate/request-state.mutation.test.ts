import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { callDigest, openState, sealState, STATE_PREFIX } from "../../../src/core/gate/request-state.js";

// The edges of openState a client can reach by hand-writing a requestState: each says why it is
// a no, and none of them may open.
const KEY = new Uint8Array(32).fill(3);
const seal = (body: string): string =>
  createHmac("sha256", KEY).update(STATE_PREFIX).update(body).digest().toString("base64url");
const b64 = (text: string): string => Buffer.from(text).toString("base64url");
const unreadable = { ok: false, why: "the request state cannot be read" };

describe("openState on hand-made states", () => {
  it("refuses a correctly sealed body behind another prefix of the same length", () => {
    const good = sealState(KEY, { nonce: "n", effect: "e", call: "c", expires: 10 });
    const otherPrefix = "x".repeat(STATE_PREFIX.length) + good.slice(STATE_PREFIX.length);
    expect(openState(KEY, otherPrefix, 0)).toEqual({
      ok: false,
      why: "the request state is not one effectgate issued",
    });
  });

  it("calls a state without a seal foreign, not forged", () => {
    const good = sealState(KEY, { nonce: "n", effect: "e", call: "c", expires: 10 });
    expect(openState(KEY, good.slice(0, good.lastIndexOf(".")), 0)).toEqual({
      ok: false,
      why: "the request state is not one effectgate issued",
    });
  });

  it("reads a sealed empty body as unreadable, not as a foreign state", () => {
    expect(openState(KEY, `${STATE_PREFIX}.${seal("")}`, 0)).toEqual(unreadable);
  });

  it("refuses sealed bodies that are not JSON, or JSON of the wrong shape", () => {
    const notJson = b64("{nonce");
    expect(openState(KEY, `${STATE_PREFIX}${notJson}.${seal(notJson)}`, 0)).toEqual(unreadable);
    for (const claims of [
      { nonce: 1, effect: "e", call: "c", expires: 10 },
      { nonce: "n", effect: 1, call: "c", expires: 10 },
      { nonce: "n", effect: "e", call: 1, expires: 10 },
      { nonce: "n", effect: "e", call: "c", expires: "10" },
      ["n", "e", "c", 10],
    ]) {
      const body = b64(JSON.stringify(claims));
      expect(openState(KEY, `${STATE_PREFIX}${body}.${seal(body)}`, 0)).toEqual(unreadable);
    }
  });
});

describe("callDigest", () => {
  it("tells tools apart by name, and a missing name from a present one", () => {
    const args = { arguments: { path: "/a" } };
    const a = callDigest("tools/call", { name: "a", ...args });
    expect(callDigest("tools/call", { name: "b", ...args })).not.toBe(a);
    expect(callDigest("tools/call", args)).not.toBe(a);
    expect(callDigest("tools/call", { name: "a" })).not.toBe(a);
    expect(callDigest("tools/call", "not params")).toBe(callDigest("tools/call", {}));
  });
});
