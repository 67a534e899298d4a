// The corners of the one client-frame reader that its main tests leave open: which id and params
// a call that cannot be judged is held under, and which problem wins when several apply.
import { describe, expect, it } from "vitest";
import {
  answerableId,
  CR_PROBLEM,
  isTrackableId,
  readClientFrame,
  type JudgedCall,
} from "../../../src/core/wire/client-frame.js";

const MODERN = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };

function only(text: string, facts?: Parameters<typeof readClientFrame>[1]): JudgedCall {
  const { calls } = readClientFrame(text, facts);
  expect(calls).toHaveLength(1);
  return calls[0] as JudgedCall;
}

describe("a well-formed judged call", () => {
  it("carries no problem member at all, and says whether it is a 2026-07-28 request", () => {
    const clean = only(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }),
    );
    expect("problem" in clean).toBe(false);
    expect(clean.modern).toBe(false);
    const modern = only(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "resources/read",
        params: { uri: "file:///a", ...MODERN },
      }),
    );
    expect(modern).toMatchObject({ method: "resources/read", id: 2, modern: true });
    expect("problem" in modern).toBe(false);
  });

  it("is unjudgeable when its params are not what the method needs", () => {
    expect(only('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}').problem).toBe(
      "tools/call: expected name to be a string, got number",
    );
  });
});

describe("a judged method without a usable id", () => {
  it("is named by a stand-in id and answered under what the client wrote", () => {
    const none = only('{"jsonrpc":"2.0","method":"prompts/get","params":{"name":"p"}}');
    expect(none).toMatchObject({
      method: "prompts/get",
      id: "null",
      answerId: undefined,
      params: { name: "p" },
    });
    const nul = only('{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"x"}}');
    expect(nul).toMatchObject({ id: "null", answerId: { value: null } });
    expect(nul.problem).toBe("expected a string or integer id, got null");
    const frac = only(
      `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":${JSON.stringify({ name: "x", ...MODERN })}}`,
    );
    expect(frac).toMatchObject({ id: "1.5", answerId: { value: 1.5 }, modern: true });
    expect(answerableId(frac)).toBeUndefined();
  });

  it("keeps a problem of the frame over the reason of the member", () => {
    const c = only('{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"x"}}', {
      cutProblem: () => "cut",
    });
    expect(c.problem).toBe("cut");
  });
});

describe("problems of the frame", () => {
  it("keeps the duplicate-key problem when the cut leaves nothing to say", () => {
    const c = only('{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"}}', {
      cutProblem: () => undefined,
    });
    expect(c.problem).toMatch(/duplicate/);
  });

  it("names the first problem found, not a case-folded member after it", () => {
    const c = only('{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"},"Params":{}}');
    expect(c.problem).toMatch(/duplicate/);
    expect(c.problem).not.toMatch(/another case/);
  });

  it("says why text that is not JSON failed to parse", () => {
    const r = readClientFrame("{oops");
    expect(r).toMatchObject({ kind: "not-json", calls: [] });
    if (r.kind === "not-json") expect(r.error.length).toBeGreaterThan(0);
    const c = only("{oops tools/call");
    if (r.kind === "not-json")
      expect(c.problem).toBe(`the frame is not valid JSON but looks like a judged call: ${r.error}`);
  });

  it("trusts the caller when it says a frame does not look judged", () => {
    expect(readClientFrame('{"method":"tools/call",', { looksJudged: false }).calls).toEqual([]);
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"tools/call"}';
    const r = readClientFrame(text, { crInside: true, looksJudged: false });
    expect(r).toMatchObject({ kind: "parsed", crSplit: false, calls: [] });
  });
});

describe("a frame that does not parse but looks like a judged call", () => {
  it("is named by the method and id its text shows", () => {
    expect(only('{"jsonrpc":"2.0","id":"a\\"b","method":"prompts/get","params":{')).toMatchObject({
      method: "prompts/get",
      id: 'a"b',
      answerId: { value: 'a"b' },
      params: undefined,
      modern: false,
    });
    expect(only('{"id" : -5 , "method" : "resources/read" ,')).toMatchObject({
      method: "resources/read",
      id: -5,
      answerId: { value: -5 },
    });
  });

  it("falls back to tools/call and the empty id when the text shows neither", () => {
    expect(only('{"method":"tools\\/call",')).toMatchObject({
      method: "tools/call",
      id: "",
      answerId: undefined,
    });
    // null is an id the refusal can answer, but not one the relay tracks
    expect(only('{"id":null,"method":"tools/call",')).toMatchObject({ id: "", answerId: { value: null } });
    // digits JSON does not allow, and an escape it does not know, are no id at all
    expect(only('{"id":007,"method":"tools/call",').answerId).toBeUndefined();
    expect(only('{"id":"\\q","method":"tools/call",').answerId).toBeUndefined();
  });
});

describe("a line with a raw CR inside", () => {
  const cr = (msg: object): string => JSON.stringify(msg).replace(/,/, ",\r");

  it("holds a request of another method as an unjudgeable call under its own id", () => {
    const c = only(
      cr({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { q: "tools/call", ...MODERN } }),
    );
    expect(c).toMatchObject({
      method: "tools/call",
      id: 4,
      answerId: { value: 4 },
      modern: true,
      problem: CR_PROBLEM,
    });
    expect(c.params).toMatchObject({ q: "tools/call" });
  });

  it("holds a notification by its params, with no id to answer", () => {
    const c = only(cr({ jsonrpc: "2.0", method: "notifications/x", params: { q: "tools/call" } }));
    expect(c).toMatchObject({ id: "", answerId: undefined, params: { q: "tools/call" }, modern: false });
  });

  it("holds a response by nothing but the problem", () => {
    const c = only(cr({ jsonrpc: "2.0", id: 9, result: { text: "tools/call" } }));
    // a response is no request the client waits on: there is nothing to answer
    expect(c).toMatchObject({ id: "", answerId: undefined, params: undefined, modern: false });
  });

  it("holds a batch without judged calls as one unreadable call", () => {
    const text = `[${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })},\r{"jsonrpc":"2.0","method":"n","params":"tools/call"}]`;
    const r = readClientFrame(text);
    expect(r.calls).toEqual([
      {
        method: "tools/call",
        id: "",
        answerId: undefined,
        params: undefined,
        modern: false,
        problem: CR_PROBLEM,
      },
    ]);
    if (r.kind === "parsed") expect(r.requests.map((q) => q.id)).toEqual([1]);
  });

  it("is only a line end when the CR is last", () => {
    const r = readClientFrame(`{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"tools/call"}\r`);
    expect(r).toMatchObject({ kind: "parsed", crSplit: false, calls: [] });
  });
});

describe("a batch", () => {
  it("with a malformed member and no judged call looks judged: one unreadable call", () => {
    const r = readClientFrame('[7,{"jsonrpc":"2.0","method":"n","params":"tools/call"}]');
    expect(r.calls).toEqual([
      {
        method: "tools/call",
        id: "",
        answerId: undefined,
        params: undefined,
        modern: false,
        problem: "a batch with a malformed member (expected a JSON-RPC object, got number)",
      },
    ]);
    expect(readClientFrame('[7,{"jsonrpc":"2.0","method":"n"}]').calls).toEqual([]);
  });

  it("keeps the frame's problem over its malformed member", () => {
    const r = readClientFrame(
      '[7,{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"}}]',
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ index: 1, id: 2 });
    expect(r.calls[0]?.problem).toMatch(/duplicate/);
  });

  it("whose duplicate method hides a judged call holds it as that method", () => {
    const r = readClientFrame('[{"jsonrpc":"2.0","id":1,"method":"prompts/get","method":"ping"}]');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({ method: "prompts/get", id: "", answerId: undefined });
    expect(r.calls[0]?.problem).toMatch(/duplicate.*: the server may read a method as prompts\/get$/);
    if (r.kind === "parsed") expect(r.requests).toEqual([{ method: "ping", id: 1, params: undefined }]);
  });

  it("without a problem holds no call for a method that only loosely looks judged", () => {
    expect(readClientFrame('[{"jsonrpc":"2.0","id":1,"method":"x/tools/call"}]').calls).toEqual([]);
  });

  it("with a problem but no judged method anywhere holds no call", () => {
    expect(readClientFrame('[{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}]').calls).toEqual([]);
    // looking like a call is not enough without a malformed member or a judged spelling
    expect(
      readClientFrame('[{"jsonrpc":"2.0","id":1,"id":2,"method":"ping","params":{"q":"tools/call"}}]').calls,
    ).toEqual([]);
  });

  it("lists its requests in order and only those", () => {
    const r = readClientFrame(
      JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "x" } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 3, result: {} },
        { jsonrpc: "2.0", id: "b", method: "tools/list" },
      ]),
    );
    if (r.kind !== "parsed") throw new Error("expected a parsed frame");
    expect(r.requests.map((q) => [q.method, q.id])).toEqual([
      ["tools/call", "a"],
      ["tools/list", "b"],
    ]);
    expect(r.calls.map((c) => c.index)).toEqual([0]);
  });
});

describe("a single message read two ways", () => {
  it("whose last-wins reading is a notification is held under the judged method, params kept", () => {
    const c = only('{"jsonrpc":"2.0","method":"tools/call","method":"ping","params":{"name":"x"}}');
    expect(c).toMatchObject({ method: "tools/call", id: "null", answerId: undefined, params: { name: "x" } });
  });

  it("whose last-wins reading has an unusable id is held under that id", () => {
    const c = only(
      `{"jsonrpc":"2.0","id":1.5,"method":"resources/read","method":"ping","params":${JSON.stringify(MODERN)}}`,
    );
    expect(c).toMatchObject({ method: "resources/read", id: "1.5", answerId: { value: 1.5 }, modern: true });
  });

  it("whose last-wins reading is a response holds no params", () => {
    const c = only('{"jsonrpc":"2.0","id":1,"result":{},"result":{},"METHOD":"tools/call"}');
    // a response is no request the client waits on: its id is not one to answer
    expect(c).toMatchObject({ method: "tools/call", id: "null", answerId: undefined, params: undefined });
  });

  it("with no judged spelling holds nothing", () => {
    expect(readClientFrame('{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}').calls).toEqual([]);
  });
});

describe("a message that is not one but looks like a judged call", () => {
  it("is held under its reason, and its params when it has them", () => {
    const c = only('{"jsonrpc":"2.0","id":1,"method":5,"params":{"name":"tools/call"}}');
    expect(c).toMatchObject({
      method: "tools/call",
      id: "",
      answerId: undefined,
      problem: "expected a string method, got number",
    });
    const bad = only('{"jsonrpc":"2.0","id":[1],"method":"x","params":{"q":"tools/call"}}');
    expect(bad).toMatchObject({ id: "", answerId: undefined, params: { q: "tools/call" } });
    expect(bad.problem).toBe("expected a string or integer id, got object");
    expect(readClientFrame('{"jsonrpc":"2.0","id":1,"method":5}').calls).toEqual([]);
  });
});

describe("isTrackableId", () => {
  it("takes strings and integers, rounded ones included, and nothing else", () => {
    expect([1, "1", 2 ** 53 + 2, 1.5, null, undefined, {}].map(isTrackableId)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("more corners of the reader", () => {
  it("says what a raw CR does, and keeps a judged call's own method and params under it", () => {
    expect(CR_PROBLEM).toMatch(/^a carriage return inside the line: a server that ends lines at CR/);
    const c = only(
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "u" } }).replace(
        /,/,
        ",\r",
      ),
    );
    expect(c).toMatchObject({ method: "resources/read", id: 3, params: { uri: "u" }, problem: CR_PROBLEM });
  });

  it("holds nothing for a clean message whose method only loosely looks judged", () => {
    expect(readClientFrame('{"jsonrpc":"2.0","method":"notifications/tools/call_done"}').calls).toEqual([]);
    expect(readClientFrame('{"jsonrpc":"2.0","id":1,"method":"x/tools/call"}').calls).toEqual([]);
  });

  it("holds a last-wins request of another method with its params", () => {
    const c = only(
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","method":"ping","params":${JSON.stringify({ name: "n", ...MODERN })}}`,
    );
    expect(c).toMatchObject({ method: "tools/call", id: 5, params: { name: "n" }, modern: true });
  });

  it("finds an id of several digits in text that does not parse", () => {
    expect(only('{"id":42,"method":"tools/call",')).toMatchObject({ id: 42, answerId: { value: 42 } });
  });

  it("answers a clean call under its id", () => {
    expect(answerableId(only('{"jsonrpc":"2.0","id":"k","method":"tools/call","params":{"name":"x"}}'))).toBe(
      "k",
    );
  });
});
