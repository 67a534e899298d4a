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
  });

  it("says when an integer would reach the server rounded", () => {
    expect(numbersSurviveRewrite('{"id":2,"params":{"n":9007199254740991,"f":1.5e3}}')).toBe(true);
    expect(numbersSurviveRewrite('{"id":2,"params":{"n":9007199254740993}}')).toBe(false);
    expect(numbersSurviveRewrite('{"id":2,"params":{"s":"9007199254740993"}}')).toBe(true);
  });
});
