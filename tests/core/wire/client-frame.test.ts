import { describe, expect, it } from "vitest";
import { answerableId, CR_PROBLEM, readClientFrame } from "../../../src/core/wire/client-frame.js";

const call = (id: unknown, params: unknown): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });

describe("the one reading of a client frame", () => {
  it("reads a clean call as one judged call and one request, with no problem", () => {
    const r = readClientFrame(call(1, { name: "read_file", arguments: { path: "a" } }));
    expect(r).toMatchObject({ kind: "parsed", crSplit: false, members: undefined });
    expect(r.calls).toEqual([
      {
        method: "tools/call",
        id: 1,
        answerId: { value: 1 },
        params: { name: "read_file", arguments: { path: "a" } },
        modern: false,
      },
    ]);
    if (r.kind === "parsed")
      expect(r.requests).toEqual([{ method: "tools/call", id: 1, params: r.calls[0]?.params }]);
  });

  // Disagreement 1 of issue 18: eval read this as a clean read_file call, the relay refused it.
  it('makes a case-folded "Params" beside params unjudgeable', () => {
    const text =
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a"}},"Params":{"name":"write_file","arguments":{"path":"~/.bashrc"}}}';
    const [c] = readClientFrame(text).calls;
    expect(c?.problem).toMatch(/member "Params" is "params" in another case/);
    expect(c?.id).toBe(7);
  });

  // Disagreement 2 of issue 18: eval called this a notification and "not judged".
  it("reads a tools/call without an id as an ill-formed call, not a notification", () => {
    const r = readClientFrame(
      JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "x" } }),
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      method: "tools/call",
      problem: "tools/call without an id",
      answerId: undefined,
    });
    expect(answerableId(r.calls[0] as NonNullable<(typeof r.calls)[0]>)).toBeUndefined();
    if (r.kind === "parsed") expect(r.requests).toEqual([]);
  });

  it("reads text that is not JSON as an unreadable call only when it looks like one", () => {
    const torn = readClientFrame('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{');
    expect(torn.kind).toBe("not-json");
    expect(torn.calls).toHaveLength(1);
    expect(torn.calls[0]).toMatchObject({ method: "tools/call", id: 3, answerId: { value: 3 } });
    expect(torn.calls[0]?.problem).toMatch(/^the frame is not valid JSON but looks like a judged call: /);
    expect(readClientFrame("hello").calls).toEqual([]);
  });

  it("makes every call of a line with a raw CR inside unjudgeable, under its own id", () => {
    const text = `[${call("a", { name: "x" })},\r${call("b", { name: "y" })}]`;
    const r = readClientFrame(text);
    expect(r).toMatchObject({ kind: "parsed", crSplit: true });
    expect(r.calls.map((c) => [c.id, c.index, c.problem])).toEqual([
      ["a", 0, CR_PROBLEM],
      ["b", 1, CR_PROBLEM],
    ]);
    // A CR at the very end of the line is only a line terminator.
    expect(readClientFrame(`${call(1, { name: "x" })}\r`).calls[0]?.problem).toBeUndefined();
  });

  it("makes a batch with a malformed member unjudgeable, and keeps every member's position", () => {
    const r = readClientFrame(`[${call(1, { name: "x" })},7]`);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ index: 0, id: 1 });
    expect(r.calls[0]?.problem).toBe(
      "a batch with a malformed member (expected a JSON-RPC object, got number)",
    );
    if (r.kind === "parsed") expect(r.members).toHaveLength(2);
  });

  it("holds a frame with duplicate methods as the judged one a first-wins server reads", () => {
    const r = readClientFrame('{"jsonrpc":"2.0","id":"d","method":"tools/call","method":"ping","params":{}}');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ method: "tools/call", id: "d", answerId: { value: "d" } });
    expect(r.calls[0]?.problem).toMatch(/duplicate.*: the server may read the method as tools\/call$/);
  });

  it("takes what the caller knows of a big frame over what its text shows", () => {
    const text = call(1, { name: "x" });
    expect(readClientFrame(text, { cutProblem: () => "too large to judge" }).calls[0]?.problem).toBe(
      "too large to judge",
    );
    expect(readClientFrame(text, { crInside: true, looksJudged: true }).calls[0]?.problem).toBe(CR_PROBLEM);
    expect(readClientFrame("not json", { looksJudged: true }).calls).toHaveLength(1);
  });

  it("does not judge requests of other methods, but lists them", () => {
    const r = readClientFrame(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    expect(r.calls).toEqual([]);
    if (r.kind === "parsed") expect(r.requests).toEqual([{ method: "tools/list", id: 2, params: undefined }]);
  });
});
