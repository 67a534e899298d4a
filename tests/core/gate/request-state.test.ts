import { describe, expect, it } from "vitest";
import {
  callDigest,
  isOurState,
  openState,
  sealState,
  STATE_PREFIX,
  type StateClaims,
} from "../../../src/core/gate/request-state.js";
import {
  APPROVAL_INPUT,
  declaresFormElicitation,
  inputRequiredResult,
  numbersSurviveRewrite,
  serverInputOf,
  splitRetry,
} from "../../../src/core/gate/input-required.js";

const KEY = new Uint8Array(32).fill(7);
const claims: StateClaims = { nonce: "n1", effect: "e".repeat(64), call: "c".repeat(64), expires: 1000 };

describe("the sealed requestState", () => {
  it("opens what it sealed, before the expiry only", () => {
    const s = sealState(KEY, claims);
    expect(s.startsWith(STATE_PREFIX)).toBe(true);
    expect(isOurState(s)).toBe(true);
    expect(openState(KEY, s, 999)).toEqual({ ok: true, claims });
    expect(openState(KEY, s, 1000)).toEqual({
      ok: false,
      why: "the question expired before the answer came",
    });
  });

  it("refuses another key, a changed body, a changed seal and a state without a seal", () => {
    const s = sealState(KEY, claims);
    const forged = "the request state was forged or altered";
    expect(openState(new Uint8Array(32).fill(8), s, 0)).toEqual({ ok: false, why: forged });
    const [body, seal] = s.slice(STATE_PREFIX.length).split(".") as [string, string];
    const other = Buffer.from(JSON.stringify({ ...claims, effect: "f".repeat(64) })).toString("base64url");
    expect(openState(KEY, `${STATE_PREFIX}${other}.${seal}`, 0)).toEqual({ ok: false, why: forged });
    expect(openState(KEY, `${STATE_PREFIX}${body}.${seal.slice(1)}`, 0)).toEqual({ ok: false, why: forged });
    expect(openState(KEY, `${STATE_PREFIX}${body}`, 0).ok).toBe(false);
    expect(isOurState("server-state")).toBe(false);
    expect(isOurState(42)).toBe(false);
  });

  it("binds the call's name and arguments, not their spelling or its other members", () => {
    const a = callDigest("tools/call", { name: "w", arguments: { path: "/a", content: "x" } });
    expect(callDigest("tools/call", { arguments: { content: "x", path: "/a" }, name: "w", _meta: {} })).toBe(
      a,
    );
    expect(callDigest("tools/call", { name: "w", arguments: { path: "/b", content: "x" } })).not.toBe(a);
    expect(callDigest("prompts/get", { name: "w", arguments: { path: "/a", content: "x" } })).not.toBe(a);
  });
});

describe("asking in the result", () => {
  it("asks and reads the answer under the key effectgate_approval", () => {
    expect(APPROVAL_INPUT).toBe("effectgate_approval");
    expect(Object.keys(inputRequiredResult("q?", "s")["inputRequests"] as object)).toEqual([
      "effectgate_approval",
    ]);
    expect(splitRetry({ inputResponses: { effectgate_approval: { action: "decline" }, "": 1 } })).toEqual({
      answer: { action: "decline" },
      rest: {},
    });
  });

  it("asks with the approval form under effectgate's key", () => {
    const r = inputRequiredResult("q?", "state");
    expect(r).toMatchObject({
      resultType: "input_required",
      requestState: "state",
      inputRequests: {
        [APPROVAL_INPUT]: { method: "elicitation/create", params: { mode: "form", message: "q?" } },
      },
    });
  });

  it("reads form elicitation from the request's own _meta", () => {
    const caps = (c: unknown) => ({ _meta: { "io.modelcontextprotocol/clientCapabilities": c } });
    expect(declaresFormElicitation(caps({ elicitation: {} }))).toBe(true);
    expect(declaresFormElicitation(caps({ elicitation: { form: {}, url: {} } }))).toBe(true);
    expect(declaresFormElicitation(caps({ elicitation: { url: {} } }))).toBe(false);
    expect(declaresFormElicitation(caps({}))).toBe(false);
    expect(declaresFormElicitation({})).toBe(false);
    // A request without params, or with params that are not a mapping, declares nothing.
    for (const params of [undefined, null, "x", 3, { _meta: null }, { _meta: "x" }])
      expect(declaresFormElicitation(params)).toBe(false);
  });

  it("takes effectgate's members out of a retry and keeps the server's for the call", () => {
    const retry = {
      name: "w",
      arguments: { a: 1 },
      requestState: "effectgate.v1.x.y",
      inputResponses: { [APPROVAL_INPUT]: { action: "accept" } },
    };
    expect(splitRetry(retry)).toEqual({
      answer: { action: "accept" },
      rest: { name: "w", arguments: { a: 1 } },
    });
    expect(serverInputOf({ name: "w", requestState: "s", inputResponses: { k: 1 } })).toEqual({
      requestState: "s",
      inputResponses: { k: 1 },
    });
    expect(serverInputOf({ name: "w" })).toEqual({});
    for (const params of [undefined, null, "requestState", 3]) expect(serverInputOf(params)).toEqual({});
  });

  it("says when an integer would reach the server rounded", () => {
    expect(numbersSurviveRewrite('{"id":2,"params":{"n":9007199254740991,"f":1.5e3}}')).toBe(true);
    expect(numbersSurviveRewrite('{"id":2,"params":{"n":9007199254740993}}')).toBe(false);
    expect(numbersSurviveRewrite('{"id":2,"params":{"s":"9007199254740993"}}')).toBe(true);
  });

  it("reads each number whole: its fraction and exponent are part of it, not integers of their own", () => {
    const survives = (n: string) => numbersSurviveRewrite(`{"id":2,"params":{"n":${n}}}`);
    // Decimals are doubles to every reader; only an integer is promised exactly.
    expect(survives("1.5")).toBe(true);
    expect(survives("-1.5")).toBe(true);
    // 2^-60, exact as a double, written out: its digits are no integer.
    expect(survives("0.000000000000000000867361737988403547205962240695953369140625")).toBe(true);
    // Zero times any power of ten is zero.
    expect(survives("0e19007199254740993")).toBe(true);
    expect(survives("0E+19007199254740993")).toBe(true);
    expect(survives("0e-19007199254740993")).toBe(true);
    // 2^53 with an exponent: a double holds it exactly.
    expect(survives("9007199254740992e0")).toBe(true);
    expect(survives("9007199254740993")).toBe(false);
    expect(survives("-9007199254740993")).toBe(false);
    expect(survives("-9007199254740991")).toBe(true);
  });

  it("refuses a number past a double's range, and a negative zero written as a decimal", () => {
    const survives = (n: string) => numbersSurviveRewrite(`{"id":2,"params":{"n":${n}}}`);
    // JSON.stringify writes Infinity as null and -0 as 0.
    expect(survives("1e400")).toBe(false);
    expect(survives("-1E+400")).toBe(false);
    expect(survives("1e308")).toBe(true);
    expect(survives("-0.0")).toBe(false);
    expect(survives("-0e0")).toBe(false);
    // A plain -0 is the integer 0 to an exact reader too.
    expect(survives("-0")).toBe(true);
    expect(survives("0.0")).toBe(true);
  });

  it("reads numbers only outside strings, each string keeping its neighbours apart", () => {
    // An escaped backslash ends no string early, an escaped quote does not end it.
    expect(numbersSurviveRewrite('{"k\\\\":"9007199254740993","n":1}')).toBe(true);
    expect(numbersSurviveRewrite('{"k\\"":"9007199254740993","n":1}')).toBe(true);
    expect(numbersSurviveRewrite('{"k\\\\":"v","n":9007199254740993}')).toBe(false);
    // A string between two runs of digits keeps them two numbers, whatever the text around them.
    expect(numbersSurviveRewrite('[9007199"a"254740993]')).toBe(true);
  });
});
