// Unit tests for reading a frame every way a real peer may (docs/decisions/0063): Python's NaN,
// Go's case-insensitive member names, pydantic's lax ids, ids past 2^53.
import { describe, expect, it } from "vitest";
import { classify, isRoundedIntegerId } from "../../../src/core/wire/jsonrpc.js";
import { answerReadings, messageIdSpellings } from "../../../src/core/wire/answer-readings.js";
import { foldedKeyProblem } from "../../../src/core/wire/folded-members.js";
import { methodSpellings } from "../../../src/core/wire/judged-call-text.js";
import { foldKey, foldVariants } from "../../../src/core/json/key-fold.js";
import { parsePythonJson } from "../../../src/core/json/lenient-json.js";
import { pinTool } from "../../../src/core/pins/pin.js";
import { Correlator, looseIdKeys, pythonIdKey } from "../../../src/relay/server/correlate.js";
import { Asker } from "../../../src/relay/client/ask.js";
import { withClientSpelling } from "../../../src/relay/client/held-members.js";

describe("parsePythonJson", () => {
  it("reads NaN, Infinity and -Infinity outside strings as numbers", () => {
    const v = parsePythonJson('{"a":NaN,"b":[Infinity,-Infinity],"c":"NaN Infinity"}') as Record<
      string,
      unknown
    >;
    expect(Number.isNaN(v.a)).toBe(true);
    expect(v.b).toEqual([Infinity, -Infinity]);
    expect(v.c).toBe("NaN Infinity");
  });

  it("refuses what Python refuses, and text with none of the words", () => {
    expect(parsePythonJson('{"a":NaNx}')).toBeUndefined();
    expect(parsePythonJson('{"a":1,}')).toBeUndefined();
    expect(parsePythonJson('{"a":"NaN"')).toBeUndefined();
  });

  it("keeps a string that happens to look like the marker", () => {
    const v = parsePythonJson('{"a":NaN,"b":"NaN"}') as Record<string, unknown>;
    expect(v.b).toBe("NaN");
  });
});

describe("folding member names as Go does", () => {
  it("folds case, the long s and the Kelvin sign", () => {
    expect(foldKey("PARAMS")).toBe("params");
    expect(foldKey("param\u017f")).toBe("params");
    expect(foldKey("\u212Aey")).toBe("key");
  });

  it("lists the members that are another spelling of a known name", () => {
    expect(foldVariants({ method: 1, Method: 2, params: 3, other: 4 }, ["method", "params"])).toEqual([
      "Method",
    ]);
    expect(foldVariants({ method: 1, params: 3 }, ["method", "params"])).toEqual([]);
  });

  it("a client frame with such a member at message or params level has a problem", () => {
    expect(foldedKeyProblem({ id: 1, method: "ping", Method: "tools/call" })).toContain(
      '"Method" is "method"',
    );
    expect(foldedKeyProblem({ id: 1, method: "tools/call", params: { name: "x", Arguments: {} } })).toContain(
      'params."Arguments"',
    );
    expect(
      foldedKeyProblem([
        { id: 1, method: "x" },
        { id: 2, method: "y", PARAMS: {} },
      ]),
    ).toContain("PARAMS");
    expect(
      foldedKeyProblem({ id: 1, method: "tools/call", params: { name: "x", arguments: { PATH: "/" } } }),
    ).toBe(undefined);
  });

  it("methodSpellings reads a method key in any case", () => {
    expect(methodSpellings('{"method":"ping","Method":"tools/call"}')).toEqual(["ping", "tools/call"]);
    expect(methodSpellings('{"method":"ping","METHO\u017f":1}')).toEqual(["ping"]);
  });

  it("a tool with a pinned field in another case cannot be pinned", () => {
    const r = pinTool({ name: "a", description: "ok", Description: "evil", inputSchema: { type: "object" } });
    expect(r.ok).toBe(false);
    expect(pinTool({ name: "a", description: "ok", inputSchema: { type: "object" } }).ok).toBe(true);
  });
});

describe("answerReadings", () => {
  it("a well-formed response has one reading", () => {
    const m = { jsonrpc: "2.0", id: 1, result: {} };
    expect(answerReadings(m)).toEqual([{ id: 1, msg: m, how: "exact" }]);
  });

  it("a result beside a method that is not a string is still read as the answer", () => {
    const m = { id: 1, method: null, result: { a: 1 } };
    expect(classify(m).kind).toBe("invalid");
    expect(answerReadings(m)).toEqual([{ id: 1, msg: m, how: "exact" }]);
  });

  it("members in another case give every pairing of id and answer", () => {
    const m = { id: 1, ID: 2, result: "a", Result: "b" };
    const pairs = answerReadings(m).map((r) => [r.id, r.msg.result, r.how]);
    expect(pairs).toEqual([
      [1, "a", "exact"],
      [1, "b", "case-folded"],
      [2, "a", "case-folded"],
      [2, "b", "case-folded"],
    ]);
  });
});

describe("ids as lax clients read them", () => {
  it("pydantic's int: underscores between digits, booleans", () => {
    expect(pythonIdKey("1_0")).toBe("n:10");
    expect(pythonIdKey(true)).toBe("n:1");
    expect(pythonIdKey(false)).toBe("n:0");
    expect(pythonIdKey("10")).toBeUndefined(); // JavaScript's == already covers it
    expect(pythonIdKey("a_b")).toBeUndefined();
    expect(looseIdKeys("1_0")).toEqual(["s:1_0", "n:10"]);
  });

  it("the correlator shows such an answer as the request's, without ending it", () => {
    const c = new Correlator();
    c.sent({ method: "tools/list", id: 10, params: undefined });
    expect(c.peek("1_0").map((p) => p.request.id)).toEqual([10]);
    expect(c.answered("1_0", {}).answers.map((p) => p.request.id)).toEqual([10]);
    expect(c.size).toBe(1);
  });

  it("held and refused requests block answers to their ids, unless one is pending exactly", () => {
    const c = new Correlator();
    c.hold(5);
    expect(c.blockedBy(5)).toBe("held");
    expect(c.blockedBy("5")).toBe("held");
    c.release(5);
    expect(c.blockedBy(5)).toBeUndefined();
    c.refused(6);
    expect(c.blockedBy(6)).toBe("refused");
    c.sent({ method: "tools/call", id: 6, params: {} });
    expect(c.blockedBy(6)).toBeUndefined();
  });
});

describe("ids past 2^53", () => {
  it("are ids, with the client's spelling kept for the answer", () => {
    const text = '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{}}';
    const c = classify(JSON.parse(text));
    expect(c.kind).toBe("request");
    expect(isRoundedIntegerId(9007199254740992)).toBe(true);
    expect(isRoundedIntegerId(1.5)).toBe(false);
    expect(messageIdSpellings(text)).toEqual(new Map([[0, "9007199254740993"]]));
    expect(messageIdSpellings('[{"id":1},{"a":{"id":2}, "id" : -9007199254740993 }]')).toEqual(
      new Map([
        [0, "1"],
        [1, "-9007199254740993"],
      ]),
    );
  });

  it("withClientSpelling writes the client's digits into the refusal", () => {
    const text = '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call"}';
    const answers = [{ id: JSON.parse(text).id as number, text: "no", modern: false }];
    const s = withClientSpelling(answers, () => text);
    const frame = s.spell(JSON.stringify({ jsonrpc: "2.0", id: s.answers[0]?.id, result: {} }));
    expect(frame).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}');
  });

  it("a fractional id is still named as a number", () => {
    expect(classify({ id: 1.5, method: "x" })).toMatchObject({
      reason: "expected a string or integer id, got number",
    });
  });
});

describe("Asker.take says whether a frame it took is JSON", () => {
  it("a line that is not JSON is taken as not JSON", async () => {
    const sent: string[] = [];
    const asker = new Asker(
      (l) => sent.push(l),
      () => undefined,
      60_000,
    );
    const answer = asker.ask("allow?");
    const id = (JSON.parse(sent[0] ?? "{}") as { id: string }).id;
    expect(asker.take(Buffer.from(`0,"x":"${id.slice(0, id.lastIndexOf("-"))}"`))).toEqual({ json: false });
    expect(
      asker.take(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, result: { action: "decline" } }))),
    ).toEqual({
      json: true,
    });
    await expect(answer).resolves.toEqual({ answer: "decline", why: "the user declined" });
  });
});
