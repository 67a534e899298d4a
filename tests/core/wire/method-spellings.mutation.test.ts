// Every spelling of a message-level `method` in a frame, duplicates included: the relay judges a
// frame with duplicate keys by all of them, so each branch of the scanner is pinned here.
import { describe, expect, it } from "vitest";
import { ambiguousJudgedMethod, methodSpellings } from "../../../src/core/wire/judged-call-text.js";

describe("methodSpellings", () => {
  it("reads message-level method keys only, in order, duplicates included", () => {
    expect(methodSpellings('{"method":"a"}')).toEqual(["a"]);
    expect(methodSpellings('{"method":"a","method":"b"}')).toEqual(["a", "b"]);
    expect(methodSpellings('{"id":1,"params":{"method":"x"},"method":"a"}')).toEqual(["a"]);
    expect(methodSpellings('{"x":"method","y":"z"}')).toEqual([]);
    expect(methodSpellings('{"params":["method","q"],"method":"m"}')).toEqual(["m"]);
    expect(methodSpellings("{}")).toEqual([]);
    expect(methodSpellings("")).toEqual([]);
  });

  it("reads each member of a top-level batch, but not deeper arrays", () => {
    expect(methodSpellings('[{"method":"a"},{"id":2,"method":"b"}]')).toEqual(["a", "b"]);
    expect(methodSpellings('[[{"method":"a"}]]')).toEqual([]);
    expect(methodSpellings('{"p":[{"method":"a"}]}')).toEqual([]);
  });

  it("decodes escapes and reports non-string values as undefined", () => {
    expect(methodSpellings('{"meth\\u006fd":"tools\\/call"}')).toEqual(["tools/call"]);
    expect(methodSpellings('{"method":"a\\"b"}')).toEqual(['a"b']);
    expect(methodSpellings('{"method":"a\\\\","x":1}')).toEqual(["a\\"]);
    expect(methodSpellings('{"method": 1,"method":"b"}')).toEqual([undefined, "b"]);
    expect(methodSpellings('{"method":\n\t\r null}')).toEqual([undefined]);
    expect(methodSpellings('{"method":{"a":"b"},"c":"d"}')).toEqual([undefined]);
    expect(methodSpellings('{"method":["tools/call"]}')).toEqual([undefined]);
    expect(methodSpellings('{"method" : "a"}')).toEqual(["a"]);
  });

  it("goes back to keys after a value, and to the outer object after a nested one", () => {
    expect(methodSpellings('{"a":{"b":1},"method":"m"}')).toEqual(["m"]);
    expect(methodSpellings('{"a":"method","method":"m"}')).toEqual(["m"]);
    expect(methodSpellings('{"a":{"method":"x"},"b":2,"method":"m"}')).toEqual(["m"]);
  });
});

describe("ambiguousJudgedMethod", () => {
  it("names the judged method any spelling may be", () => {
    expect(ambiguousJudgedMethod('{"method":"tools/list","method":"prompts/get"}')).toBe("prompts/get");
    expect(ambiguousJudgedMethod('{"method":"resources/read"}')).toBe("resources/read");
    expect(ambiguousJudgedMethod('{"method":"TOOLS/CALL"}')).toBe("tools/call");
    expect(ambiguousJudgedMethod('{"method":"tools/list"}')).toBeUndefined();
    expect(ambiguousJudgedMethod('{"method":1,"x":"tools/call"}')).toBe("tools/call");
    expect(ambiguousJudgedMethod('{"method":1,"method":"x"}')).toBeUndefined();
    expect(ambiguousJudgedMethod("{}")).toBeUndefined();
  });
});
