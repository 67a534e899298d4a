// Exact-value tests for the wire-level guards (strict JSON, JCS, levels, JSON-RPC shapes, frame
// splitting, refusal frames). They pin boundaries and messages that the behavioural tests leave
// loose, so that Stryker's mutants of these files have something to fail.
import { describe, expect, it } from "vitest";
import { canonicalHash, canonicalJson, sha256Hex } from "../../../src/core/json/jcs.js";
import {
  classify,
  isModernRequest,
  isRecord,
  isValidId,
  paramsProblem,
} from "../../../src/core/wire/jsonrpc.js";
import { looksLikeJudgedCall } from "../../../src/core/wire/judged-call-text.js";
import { outcomeFor, parseLevel } from "../../../src/core/gate/levels.js";
import { LineSplitter, MAX_FRAME_BYTES, type Frame } from "../../../src/core/framing/line-splitter.js";
import { batchRefusalFrame, refusalMessage } from "../../../src/core/gate/refusal-frame.js";
import { DEFAULT_MAX_DEPTH, parseStrictJson } from "../../../src/core/json/strict-json.js";

const nest = (n: number): string => "[".repeat(n) + "]".repeat(n);

describe("parseStrictJson boundaries", () => {
  it("allows exactly the depth budget and refuses one more, by default 64", () => {
    expect(DEFAULT_MAX_DEPTH).toBe(64);
    expect(parseStrictJson(nest(64)).ok).toBe(true);
    expect(parseStrictJson(nest(65))).toEqual({ ok: false, error: "nested deeper than 64 levels" });
    expect(parseStrictJson(nest(3), 3).ok).toBe(true);
    expect(parseStrictJson(nest(4), 3)).toEqual({ ok: false, error: "nested deeper than 3 levels" });
    expect(parseStrictJson('{"a":{"b":{}}}', 2)).toEqual({ ok: false, error: "nested deeper than 2 levels" });
  });

  it("counts depth, not the number of siblings", () => {
    const siblings = `[${Array.from({ length: 10 }, () => "[]").join(",")}]`;
    expect(parseStrictJson(siblings, 2).ok).toBe(true);
    const objs = `[${Array.from({ length: 10 }, () => '{"a":{}}').join(",")}]`;
    expect(parseStrictJson(objs, 3).ok).toBe(true);
  });

  it("names the parse failure", () => {
    const r = parseStrictJson("{nope");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^not valid JSON \(.+\)$/);
  });

  it("returns to the outer object after a nested one closes", () => {
    expect(parseStrictJson('{"x":{},"x":1}')).toEqual({ ok: false, error: 'duplicate key "x"' });
    expect(parseStrictJson('{"x":[1,{"y":2}],"x":1}')).toEqual({ ok: false, error: 'duplicate key "x"' });
    expect(parseStrictJson('{"x":{"a":1},"y":{"a":1}}').ok).toBe(true);
  });

  it("does not take string values for keys, in objects or arrays", () => {
    expect(parseStrictJson('{"a":"a"}').ok).toBe(true);
    expect(parseStrictJson('["a","a",{"a":"a","b":"a"}]').ok).toBe(true);
    expect(parseStrictJson('{"a":["a","a"],"b":"b"}').ok).toBe(true);
  });

  it("finds the end of strings holding escaped quotes and backslashes", () => {
    expect(parseStrictJson('{"a\\\\":1,"a\\\\":2}')).toEqual({ ok: false, error: 'duplicate key "a\\\\"' });
    expect(parseStrictJson('{"a\\"":1,"b":2}').ok).toBe(true);
    expect(parseStrictJson('{"a\\"":1,"a\\"":2}')).toEqual({ ok: false, error: 'duplicate key "a\\""' });
    expect(parseStrictJson('{"q":"x\\\\\\"","q2":1}').ok).toBe(true);
    expect(parseStrictJson('{"q":"\\\\","q":1}').ok).toBe(false);
    // A brace inside a string is text, not structure.
    expect(parseStrictJson('{"a":"{[","b":1}', 1).ok).toBe(true);
  });

  it("decodes escaped keys before comparing them", () => {
    expect(parseStrictJson('{"\\u0061":1,"a":2}')).toEqual({ ok: false, error: 'duplicate key "a"' });
    expect(parseStrictJson('{"\\u0061":1,"b":2}').ok).toBe(true);
  });
});

describe("canonicalJson", () => {
  it("writes each JSON kind exactly", () => {
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson(true)).toBe("true");
    expect(canonicalJson(false)).toBe("false");
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson([1, "x", [null]])).toBe('[1,"x",[null]]');
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: undefined })).toBe('{"b":[{"c":2,"d":1}]}');
  });

  it("refuses what JSON cannot hold, saying what it got", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow("expected a finite number, got NaN");
    expect(() => canonicalJson(Infinity)).toThrow("expected a finite number, got Infinity");
    expect(() => canonicalJson(() => 1)).toThrow("expected a JSON value, got function");
    expect(() => canonicalJson(undefined)).toThrow("expected a JSON value, got undefined");
    expect(() => canonicalJson(1n)).toThrow(TypeError);
  });

  it("hashes the canonical text with SHA-256", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(canonicalHash({ b: 1, a: 2 })).toBe(sha256Hex('{"a":2,"b":1}'));
  });
});

describe("levels", () => {
  it("maps every level and verdict", () => {
    const table: [string, string, string][] = [
      ["observe", "allow", "forward"],
      ["observe", "confirm", "forward"],
      ["observe", "deny", "forward"],
      ["enforce", "allow", "forward"],
      ["enforce", "confirm", "forward-noted"],
      ["enforce", "deny", "refuse"],
      ["strict", "allow", "forward"],
      ["strict", "confirm", "ask"],
      ["strict", "deny", "refuse"],
    ];
    for (const [level, verdict, outcome] of table)
      expect(outcomeFor(level as never, verdict as never), `${level}/${verdict}`).toBe(outcome);
  });

  it("parses only the three level names", () => {
    expect(parseLevel("observe")).toBe("observe");
    expect(parseLevel("enforce")).toBe("enforce");
    expect(parseLevel("strict")).toBe("strict");
    expect(parseLevel("Strict")).toBeUndefined();
    expect(parseLevel("")).toBeUndefined();
  });
});

describe("JSON-RPC classification, exactly", () => {
  it("accepts string and safe-integer ids only", () => {
    expect(isValidId("x")).toBe(true);
    expect(isValidId("")).toBe(true);
    expect(isValidId(0)).toBe(true);
    expect(isValidId(-5)).toBe(true);
    expect(isValidId(2 ** 53)).toBe(false);
    expect(isValidId(1.5)).toBe(false);
    expect(isValidId(null)).toBe(false);
    expect(isValidId(true)).toBe(false);
    expect(isValidId([1])).toBe(false);
  });

  it("describes what is not a message", () => {
    expect(classify([])).toEqual({ kind: "invalid", reason: "empty batch" });
    expect(classify("t")).toEqual({ kind: "invalid", reason: "expected a JSON-RPC object, got string" });
    expect(classify(null)).toEqual({ kind: "invalid", reason: "expected a JSON-RPC object, got object" });
    expect(classify([[1]])).toEqual({
      kind: "batch",
      members: [{ kind: "invalid", reason: "expected a JSON-RPC object, got a nested list" }],
    });
    expect(classify({ jsonrpc: "2.0" })).toEqual({
      kind: "invalid",
      reason: "neither a request, a notification nor a response",
    });
    expect(classify({ method: 5, id: 1 })).toEqual({
      kind: "invalid",
      reason: "expected a string method, got number",
    });
  });

  it("keeps the whole message and params of requests and notifications", () => {
    const req = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "n" } };
    expect(classify(req)).toEqual({
      kind: "request",
      id: 4,
      method: "tools/call",
      params: req.params,
      msg: req,
    });
    const note = { jsonrpc: "2.0", method: "notifications/x", params: [1] };
    expect(classify(note)).toEqual({
      kind: "notification",
      method: "notifications/x",
      params: [1],
      msg: note,
    });
    const one = { jsonrpc: "2.0", method: "prompts/get", params: { name: "p" } };
    expect(classify(one)).toEqual({
      kind: "invalid",
      reason: "prompts/get without an id",
      method: "prompts/get",
      params: { name: "p" },
    });
    // A method that is not judged may come without an id: it is a notification.
    expect(classify({ method: "tools/list" }).kind).toBe("notification");
  });

  it("names the bad id of a request and of a response", () => {
    expect(classify({ id: null, method: "tools/list" })).toEqual({
      kind: "invalid",
      reason: "expected a string or integer id, got null",
      method: "tools/list",
      id: null,
      params: undefined,
    });
    expect(classify({ id: true, method: "x", params: 1 })).toMatchObject({
      reason: "expected a string or integer id, got boolean",
      params: 1,
    });
    const resp = { id: 2.5, result: {} };
    expect(classify(resp)).toEqual({
      kind: "invalid",
      reason: "expected a string or integer id, got number",
      id: 2.5,
    });
    const noId = { result: 1 };
    expect(classify(noId)).toEqual({ kind: "response", id: null, msg: noId });
    const err = { id: "e", error: { code: 1 } };
    expect(classify(err)).toEqual({ kind: "response", id: "e", msg: err });
  });

  it("words every params problem", () => {
    expect(paramsProblem("tools/call", undefined)).toBe("tools/call without params");
    expect(paramsProblem("prompts/get", undefined)).toBeUndefined();
    expect(paramsProblem("tools/call", null)).toBe("tools/call: expected params to be an object, got null");
    expect(paramsProblem("resources/read", "x")).toBe(
      "resources/read: expected params to be an object, got string",
    );
    expect(paramsProblem("tools/call", { name: "a", arguments: [1] })).toBe(
      "tools/call: expected arguments to be an object, got a list",
    );
    expect(paramsProblem("prompts/get", { name: "a", arguments: null })).toBe(
      "prompts/get: expected arguments to be an object, got null",
    );
    expect(paramsProblem("tools/call", { name: "a", arguments: undefined })).toBeUndefined();
    expect(paramsProblem("tools/call", { name: 3 })).toBe(
      "tools/call: expected name to be a string, got number",
    );
    expect(paramsProblem("tools/call", {})).toBe("tools/call: expected name to be a string, got undefined");
    expect(paramsProblem("resources/read", {})).toBeUndefined();
  });

  it("reads the modern version marker only as a string inside an object _meta", () => {
    const key = "io.modelcontextprotocol/protocolVersion";
    expect(isModernRequest({ _meta: { [key]: "2026-07-28" } })).toBe(true);
    expect(isModernRequest({ _meta: { [key]: 1 } })).toBe(false);
    expect(isModernRequest({ _meta: [] })).toBe(false);
    expect(isModernRequest({ _meta: null })).toBe(false);
    expect(isModernRequest(null)).toBe(false);
    expect(isModernRequest([{ _meta: { [key]: "x" } }])).toBe(false);
  });

  it("spots judged-looking text in any case and with short escapes between the words", () => {
    expect(looksLikeJudgedCall("TOOLS/CALL")).toBe(true);
    expect(looksLikeJudgedCall("resources\\u002Fread")).toBe(true);
    expect(looksLikeJudgedCall("prompts/get")).toBe(true);
    expect(looksLikeJudgedCall("toolscall")).toBe(true);
    expect(looksLikeJudgedCall("tools1234567call")).toBe(false);
    expect(looksLikeJudgedCall("resources/list")).toBe(false);
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
  });
});

describe("LineSplitter, exactly", () => {
  const collect = (s: LineSplitter, chunks: string[]): Frame[] => {
    const out: Frame[] = [];
    for (const c of chunks) s.push(Buffer.from(c), (f) => out.push(f));
    s.end((f) => out.push(f));
    return out;
  };

  it("has a 256 MiB default limit", () => {
    expect(MAX_FRAME_BYTES).toBe(256 * 1024 * 1024);
  });

  it("holds exactly the limit and gives up one byte past it", () => {
    const s = new LineSplitter(4);
    expect(s.push(Buffer.from("ab"), () => {})).toBe(true);
    expect(s.push(Buffer.from("cd"), () => {})).toBe(true);
    expect(s.buffered).toBe(4);
    expect(s.overflow).toBe(false);
    expect(s.push(Buffer.from("e"), () => {})).toBe(false);
    expect(s.overflow).toBe(true);
  });

  it("emits nothing at end after an overflow, and nothing when the stream ended on a newline", () => {
    const s = new LineSplitter(2);
    s.push(Buffer.from("abc"), () => {});
    const out: Frame[] = [];
    s.end((f) => out.push(f));
    expect(out).toEqual([]);
    expect(collect(new LineSplitter(), ["a\n"]).map((f) => f.eol)).toEqual(["\n"]);
  });

  it("joins a final unterminated frame held in several pieces, once", () => {
    const s = new LineSplitter();
    const frames = collect(s, ["ab", "c", "d"]);
    expect(frames.map((f) => [f.raw.toString(), f.bytes.toString(), f.eol])).toEqual([["abcd", "abcd", ""]]);
    expect(s.buffered).toBe(0);
    const again: Frame[] = [];
    s.end((f) => again.push(f));
    expect(again).toEqual([]);
  });

  it("resets what it holds after joining a split line", () => {
    const s = new LineSplitter();
    const out: string[] = [];
    s.push(Buffer.from("ab"), () => {});
    expect(s.buffered).toBe(2);
    s.push(Buffer.from("c\nde"), (f) => out.push(f.raw.toString()));
    expect(out).toEqual(["abc\n"]);
    expect(s.buffered).toBe(2);
    s.push(Buffer.from("\n"), (f) => out.push(f.raw.toString()));
    expect(out).toEqual(["abc\n", "de\n"]);
  });

  it("strips CR only right before LF, and a lone LF line is empty", () => {
    const f = collect(new LineSplitter(), ["\r\n", "\n", "x\r", "y\n"]);
    expect(f.map((x) => [x.bytes.toString(), x.eol])).toEqual([
      ["", "\r\n"],
      ["", "\n"],
      ["x\ry", "\n"],
    ]);
  });
});

describe("refusal messages", () => {
  it("uses a placeholder uri when resources/read had none, and a description for prompts", () => {
    expect(
      refusalMessage({ id: 1, text: "t", modern: false, method: "resources/read", params: null }),
    ).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { contents: [{ uri: "effectgate:refused", mimeType: "text/plain", text: "t" }], isError: true },
    });
    expect(
      refusalMessage({ id: 1, text: "t", modern: false, method: "resources/read", params: { uri: 5 } }),
    ).toMatchObject({ result: { contents: [{ uri: "effectgate:refused" }] } });
    expect(refusalMessage({ id: null, text: "t", modern: false, method: "prompts/get" })).toEqual({
      jsonrpc: "2.0",
      id: null,
      result: {
        description: "refused by effectgate",
        messages: [{ role: "user", content: { type: "text", text: "t" } }],
        isError: true,
      },
    });
  });

  it("adds resultType only to modern answers, member by member in a batch", () => {
    const arr = JSON.parse(
      batchRefusalFrame([
        { id: 1, text: "a", modern: true },
        { id: 2, text: "b", modern: false },
      ]),
    ) as Array<{ result: Record<string, unknown> }>;
    expect(arr[0]?.result.resultType).toBe("complete");
    expect("resultType" in (arr[1]?.result ?? {})).toBe(false);
  });
});
