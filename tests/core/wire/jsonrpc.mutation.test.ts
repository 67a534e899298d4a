// methodSpellings on valid JSON that is not an ordinary message: a bare string, a list of strings,
// and whitespace of every kind between a "method" key and its value.
import { describe, expect, it } from "vitest";
import { methodSpellings } from "../../../src/core/wire/judged-call-text.js";

describe("methodSpellings", () => {
  it("finds no method in a bare string or a list of strings", () => {
    expect(methodSpellings('"method"')).toEqual([]);
    expect(methodSpellings('["method","tools/call"]')).toEqual([]);
    expect(methodSpellings('[["method","tools/call"]]')).toEqual([]);
  });

  it("skips any JSON whitespace between the key, the colon and the value", () => {
    expect(methodSpellings('{"method" : "tools/call"}')).toEqual(["tools/call"]);
    expect(methodSpellings('{"method":\t"a"}')).toEqual(["a"]);
    expect(methodSpellings('{"method":\n"b"}')).toEqual(["b"]);
    expect(methodSpellings('{"method":\r\n"c"}')).toEqual(["c"]);
    expect(methodSpellings('{"method": 5}')).toEqual([undefined]);
  });
});
