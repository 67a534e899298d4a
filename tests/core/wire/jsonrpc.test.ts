import { describe, expect, it } from "vitest";
import { classify, isModernRequest, paramsProblem } from "../../../src/core/wire/jsonrpc.js";
import { looksLikeJudgedCall } from "../../../src/core/wire/judged-call-text.js";
import { batchRefusalFrame, refusalFrame } from "../../../src/core/gate/refusal-frame.js";

describe("classify", () => {
  it("keeps string and number ids distinct", () => {
    const a = classify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const b = classify({ jsonrpc: "2.0", id: "1", method: "tools/list" });
    expect(a).toMatchObject({ kind: "request", id: 1 });
    expect(b).toMatchObject({ kind: "request", id: "1" });
  });

  it("separates requests, notifications and responses", () => {
    expect(classify({ jsonrpc: "2.0", method: "notifications/initialized" }).kind).toBe("notification");
    expect(classify({ jsonrpc: "2.0", id: 3, result: {} }).kind).toBe("response");
    expect(classify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } })).toMatchObject({
      kind: "response",
      id: null,
    });
  });

  it("never takes a tools/call without a usable id for a notification", () => {
    expect(classify({ jsonrpc: "2.0", method: "tools/call", params: { name: "x" } })).toMatchObject({
      kind: "invalid",
      method: "tools/call",
    });
    expect(classify({ jsonrpc: "2.0", id: null, method: "tools/call", params: {} })).toMatchObject({
      kind: "invalid",
      method: "tools/call",
      id: null,
    });
    expect(classify({ jsonrpc: "2.0", id: 1.5, method: "tools/call", params: {} })).toMatchObject({
      kind: "invalid",
      id: 1.5,
    });
    expect(classify({ jsonrpc: "2.0", id: {}, method: "resources/read" })).toMatchObject({
      kind: "invalid",
      method: "resources/read",
    });
  });

  it("classifies batch members one by one", () => {
    const c = classify([
      { jsonrpc: "2.0", id: 5 },
      { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "a" } },
    ]);
    expect(c.kind).toBe("batch");
    if (c.kind !== "batch") return;
    expect(c.members.map((m) => m.kind)).toEqual(["invalid", "request"]);
    expect(classify([]).kind).toBe("invalid");
    expect(classify("text").kind).toBe("invalid");
  });

  it("finds params that cannot be judged", () => {
    expect(paramsProblem("tools/call", { name: "a", arguments: { p: 1 } })).toBeUndefined();
    expect(paramsProblem("tools/call", { name: "a", arguments: "p=1" })).toMatch(
      /expected arguments to be an object, got string/,
    );
    expect(paramsProblem("tools/call", [1])).toMatch(/got a list/);
    expect(paramsProblem("tools/call", undefined)).toMatch(/without params/);
    expect(paramsProblem("resources/read", undefined)).toBeUndefined();
  });

  it("recognises modern requests and judged-looking text", () => {
    expect(isModernRequest({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } })).toBe(
      true,
    );
    expect(isModernRequest({ _meta: {} })).toBe(false);
    expect(looksLikeJudgedCall('{"method":"tools\\/call",')).toBe(true);
    expect(looksLikeJudgedCall('{"method":"tools\\u002fcall",')).toBe(true);
    expect(looksLikeJudgedCall('{"method":"tools/list"')).toBe(false);
  });
});

describe("refusal frames", () => {
  it("answers with the same id and type, isError, no structuredContent", () => {
    const legacy = JSON.parse(refusalFrame({ id: "7", text: "no", modern: false })) as Record<
      string,
      unknown
    >;
    expect(legacy).toEqual({
      jsonrpc: "2.0",
      id: "7",
      result: { content: [{ type: "text", text: "no" }], isError: true },
    });
    const modern = JSON.parse(refusalFrame({ id: 7, text: "no", modern: true })) as {
      id: unknown;
      result: Record<string, unknown>;
    };
    expect(modern.id).toBe(7);
    expect(modern.result.resultType).toBe("complete");
    expect(refusalFrame({ id: 1, text: "a\nb", modern: false })).not.toContain("\n");
  });

  it("answers a batch with one array", () => {
    const arr = JSON.parse(
      batchRefusalFrame([
        { id: 1, text: "a", modern: false },
        { id: "2", text: "b", modern: false },
      ]),
    ) as Array<{ id: unknown }>;
    expect(arr.map((m) => m.id)).toEqual([1, "2"]);
  });
});

describe("refusal shapes for other judged methods", () => {
  it("answers resources/read with a text resource and prompts/get with a message", () => {
    const r = JSON.parse(
      refusalFrame({
        id: 1,
        text: "no",
        modern: false,
        method: "resources/read",
        params: { uri: "file:///etc/passwd" },
      }),
    ) as { result: unknown };
    expect(r.result).toEqual({
      contents: [{ uri: "file:///etc/passwd", mimeType: "text/plain", text: "no" }],
      isError: true,
    });
    const p = JSON.parse(
      refusalFrame({ id: 2, text: "no", modern: true, method: "prompts/get", params: { name: "x" } }),
    ) as { result: Record<string, unknown> };
    expect(p.result.messages).toEqual([{ role: "user", content: { type: "text", text: "no" } }]);
    expect(p.result.resultType).toBe("complete");
  });
});
