import { describe, expect, it } from "vitest";
import {
  nothingRefused,
  type Gate,
  type JudgeContext,
  type ObservedResponse,
} from "../../../src/core/gate/gate.js";
import { chainGates } from "../../../src/relay/gates/gate-chain.js";

const ctx: JudgeContext = { record: () => undefined, announce: () => undefined };
const seen: ObservedResponse = {
  request: { method: "tools/call", id: 1, params: {} },
  response: { jsonrpc: "2.0", id: 1, result: {} },
};
const forward = async () => ({ action: "forward" as const });

describe("chainGates", () => {
  it("calls synchronous hooks synchronously and returns no promise", () => {
    const calls: string[] = [];
    const gate = (name: string): Gate => ({
      judge: forward,
      observe: () => void calls.push(`${name}:observe`),
      observeServerMessage: () => void calls.push(`${name}:message`),
    });
    const chain = chainGates([gate("a"), gate("b")]);
    expect(chain.observe?.(seen, ctx)).toBeUndefined();
    expect(chain.observeServerMessage?.({ method: "x" }, ctx)).toBeUndefined();
    expect(calls).toEqual(["a:observe", "b:observe", "a:message", "b:message"]);
  });

  it("keeps the order when one hook is asynchronous", async () => {
    const calls: string[] = [];
    let release: () => void = () => undefined;
    const a: Gate = {
      judge: forward,
      observe: () => new Promise<void>((r) => (release = () => (calls.push("a"), r()))),
    };
    const b: Gate = { judge: forward, observe: () => void calls.push("b") };
    const pending = chainGates([a, b]).observe?.(seen, ctx);
    expect(pending).toBeInstanceOf(Promise);
    expect(calls).toEqual([]);
    release();
    await pending;
    expect(calls).toEqual(["a", "b"]);
  });

  it("leaves a hook undefined when no gate defines it; the first refusal wins", async () => {
    const refuse: Gate = { judge: async () => ({ action: "refuse", text: "no" }) };
    const chain = chainGates([{ judge: forward, observe: () => undefined }, refuse]);
    expect(chain.observeServerMessage).toBeUndefined();
    expect(chain.observe).toBeDefined();
    expect(await chain.judge({ method: "tools/call", id: 1, params: {}, modern: false }, ctx)).toEqual({
      action: "refuse",
      text: "no",
    });
  });
});

describe("nothingRefused", () => {
  it("holds for checks off and for a gate that only records, not for one that may refuse", () => {
    expect(nothingRefused(undefined)).toBe(true);
    expect(nothingRefused({ recordsOnly: true, judge: forward })).toBe(true);
    expect(nothingRefused({ recordsOnly: false, judge: forward })).toBe(false);
    expect(nothingRefused({ judge: forward })).toBe(false);
    // A chain only records when every gate in it does.
    expect(nothingRefused(chainGates([{ recordsOnly: true, judge: forward }, { judge: forward }]))).toBe(
      false,
    );
  });
});

describe("chainGates and questions", () => {
  it("puts the gates after a question to work once it is accepted, and carries wouldRefuse", async () => {
    const seen: string[] = [];
    const pin: Gate = { judge: async () => ({ action: "forward", wouldRefuse: true }) };
    const asker: Gate = {
      judge: async () => ({
        action: "ask",
        question: "ok?",
        settle: (reply) => (reply === "accept" ? { action: "forward" } : { action: "refuse", text: "no" }),
      }),
    };
    const last: Gate = {
      judge: async () => {
        seen.push("last");
        return { action: "refuse", text: "last said no" };
      },
    };
    const chain = chainGates([pin, asker, last]);
    const ctx = { record: () => undefined, announce: () => undefined, canAsk: true };
    const req = { method: "tools/call", id: 1, params: {}, modern: false };
    const a = await chain.judge(req, ctx);
    expect(a).toMatchObject({ action: "ask", wouldRefuse: true });
    expect(seen).toEqual([]);
    if (a.action !== "ask") return;
    expect(await a.settle("decline")).toEqual({ action: "refuse", text: "no" });
    expect(seen).toEqual([]);
    expect(await a.settle("accept")).toEqual({ action: "refuse", text: "last said no", wouldRefuse: true });
    expect(seen).toEqual(["last"]);
  });
});
