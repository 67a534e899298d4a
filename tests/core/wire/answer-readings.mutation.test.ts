// Which ids and answers a client could read from a server message, and the client's own spelling
// of each message-level id: the cases every-reading.test.ts leaves open.
import { describe, expect, it } from "vitest";
import { answerReadings, messageIdSpellings } from "../../../src/core/wire/answer-readings.js";

describe("answerReadings", () => {
  it("reads an error as the answer as it reads a result", () => {
    const m = { jsonrpc: "2.0", id: "e", error: { code: 1 } };
    expect(answerReadings(m)).toEqual([{ id: "e", msg: m, how: "exact" }]);
  });

  it("has no exact reading without an id, or without a result or error", () => {
    expect(answerReadings({ jsonrpc: "2.0", result: {} })).toEqual([]);
    expect(answerReadings({ jsonrpc: "2.0", id: 1 })).toEqual([]);
    expect(answerReadings({ jsonrpc: "2.0", id: 1, method: "x" })).toEqual([]);
  });

  it("reads a case-folded id with an exact result, and an exact id with a folded error", () => {
    expect(answerReadings({ Id: 3, result: "r" })).toEqual([
      { id: 3, msg: { id: 3, result: "r" }, how: "case-folded" },
    ]);
    expect(answerReadings({ id: 4, ERROR: "x" })).toEqual([
      { id: 4, msg: { id: 4, error: "x" }, how: "case-folded" },
    ]);
  });

  it("reads a result in another case beside an exact id", () => {
    expect(answerReadings({ id: 1, Result: "b" })).toEqual([
      { id: 1, msg: { id: 1, result: "b" }, how: "case-folded" },
    ]);
  });

  it("pairs every id with results first, then errors", () => {
    const m = { id: 1, result: "a", Error: "b" };
    expect(answerReadings(m).map((r) => [r.id, r.msg, r.how])).toEqual([
      [1, m, "exact"],
      [1, { id: 1, error: "b" }, "case-folded"],
    ]);
  });

  it("reads a folded id without any answer as nothing", () => {
    expect(answerReadings({ ID: 1, method: "x" })).toEqual([]);
  });
});

describe("messageIdSpellings", () => {
  it("takes the text up to the end of the value, after spaces and the colon", () => {
    expect(messageIdSpellings('{ "id"\t:\n 12 ,"x":1}')).toEqual(new Map([[0, "12"]]));
    expect(messageIdSpellings('{"x":1,"id":7}')).toEqual(new Map([[0, "7"]]));
    expect(messageIdSpellings('[{"id":8}]')).toEqual(new Map([[0, "8"]]));
    expect(messageIdSpellings('{"id":"a"}')).toEqual(new Map([[0, '"a"']]));
  });

  it("reads an escaped key by its decoded name", () => {
    expect(messageIdSpellings('{"\\u0069d":5}')).toEqual(new Map([[0, "5"]]));
    expect(messageIdSpellings('{"i\\"d":5}')).toEqual(new Map());
  });

  it("never takes a string value, or an id below message level", () => {
    expect(messageIdSpellings('{"x":"id","y":"{[,","id":4}')).toEqual(new Map([[0, "4"]]));
    expect(messageIdSpellings('{"params":{"id":5},"id":3}')).toEqual(new Map([[0, "3"]]));
    expect(messageIdSpellings('{"params":{"id":5}}')).toEqual(new Map());
    expect(messageIdSpellings('{"a":["id",1],"b":2}')).toEqual(new Map());
  });

  it("names each batch member by its index, whatever its members hold", () => {
    expect(messageIdSpellings('[{"a":[1,2],"b":{"c":3,"d":4}},{"id":5} , {"x":"]"},{"id":6}]')).toEqual(
      new Map([
        [1, "5"],
        [3, "6"],
      ]),
    );
    expect(messageIdSpellings('[{"params":{"id":9}},{"id":2}]')).toEqual(new Map([[1, "2"]]));
  });

  it("reads keys again after every comma of an object, not of a list inside it", () => {
    expect(messageIdSpellings('{"a":[1,"id"],"id":3}')).toEqual(new Map([[0, "3"]]));
  });
});

describe("the exact reading and the id spellings, once more", () => {
  it("reads a message with both a result and an error one way only", () => {
    const m = { jsonrpc: "2.0", id: 1, result: "a", error: "b" };
    expect(answerReadings(m)).toEqual([{ id: 1, msg: m, how: "exact" }]);
  });

  it("takes no string value for a key, even one spelled id", () => {
    expect(messageIdSpellings('{"id":4,"x":"id"}')).toEqual(new Map([[0, "4"]]));
    expect(messageIdSpellings('{"x":"id"}')).toEqual(new Map());
    expect(messageIdSpellings('"id"')).toEqual(new Map());
  });
});
