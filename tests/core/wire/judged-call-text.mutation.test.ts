// The piecewise watch for judged calls, and the loose test it must agree with, on the texts a
// random property rarely builds: a match long behind, an escape decoded where it was cut, and
// text that only a duplicated or lost piece would make look like a call.
import { describe, expect, it } from "vitest";
import { JudgedCallWatch, looksLikeJudgedCall } from "../../../src/core/wire/judged-call-text.js";
import { foldedKeyProblem } from "../../../src/core/wire/folded-members.js";
import { messageIdSpellings } from "../../../src/core/wire/answer-readings.js";

function watched(pieces: string[]): boolean {
  const watch = new JudgedCallWatch();
  for (const p of pieces) watch.add(p);
  return watch.found();
}

describe("looksLikeJudgedCall", () => {
  it("allows up to six characters between the words of every judged method", () => {
    expect(looksLikeJudgedCall("resources--read")).toBe(true);
    expect(looksLikeJudgedCall("prompts--get")).toBe(true);
    expect(looksLikeJudgedCall("tools--call")).toBe(true);
    expect(looksLikeJudgedCall("prompts1234567get")).toBe(false);
  });
});

describe("JudgedCallWatch", () => {
  it("keeps a call it saw, however much text follows", () => {
    // The raw tail forgets the call after 32 characters: only the answer already given keeps it.
    expect(watched(["tools/call", "x".repeat(40), "y"])).toBe(true);
  });

  it("matches raw text across pieces when the decoded text does not match", () => {
    // `\xca` decodes to one character, so only the raw text `tools\xcall` looks like tools/call.
    expect(looksLikeJudgedCall("tools\\xcall")).toBe(true);
    expect(watched(["tools\\x", "call"])).toBe(true);
  });

  it("decodes the text before a held backslash once, and the held text once", () => {
    // Read twice, `calltools` would end in `toolscall`; the whole text holds no judged call.
    const pieces = ["\\calltools", "y".repeat(12)];
    expect(looksLikeJudgedCall(pieces.join(""))).toBe(false);
    expect(watched(pieces)).toBe(false);
    const before = ["callxtools\\n", "y".repeat(12)];
    expect(looksLikeJudgedCall(before.join(""))).toBe(false);
    expect(watched(before)).toBe(false);
  });

  it("gives the whole text's answer when asked twice", () => {
    const watch = new JudgedCallWatch();
    watch.add("tools\\");
    expect(watch.found()).toBe(false);
    expect(watch.found()).toBe(false);
  });
});

describe("foldedKeyProblem", () => {
  it("passes over values that are not objects, in a batch or alone", () => {
    expect(foldedKeyProblem(null)).toBeUndefined();
    expect(foldedKeyProblem([null, 1, "Method"])).toBeUndefined();
    expect(foldedKeyProblem([null, { Method: "x" }])).toMatch(/member "Method" is "method"/);
  });
});

describe("messageIdSpellings", () => {
  it("reads no key among the strings of a batch list", () => {
    expect(messageIdSpellings('["id", 5]')).toEqual(new Map());
    expect(messageIdSpellings('[1,"id",5]')).toEqual(new Map());
    expect(messageIdSpellings('[{"id":1},["x","id",2]]')).toEqual(new Map([[0, "1"]]));
  });
});
