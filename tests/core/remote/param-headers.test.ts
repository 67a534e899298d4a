import { describe, expect, it } from "vitest";
import {
  decodeHeaderValue,
  encodeHeaderValue,
  headerBodyMismatch,
  paramHeaders,
  scanHeaderDeclarations,
} from "../../../src/core/remote/param-headers.js";

const schema = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: props,
  ...extra,
});

describe("x-mcp-header declarations", () => {
  it("finds annotations on properties reached through properties alone, at any depth", () => {
    const r = scanHeaderDeclarations(
      schema({
        region: { type: "string", "x-mcp-header": "Region" },
        opts: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
        plain: { type: "string" },
      }),
    );
    expect(r).toEqual({
      ok: true,
      declarations: [
        { path: ["region"], name: "Region" },
        { path: ["opts", "dry"], name: "Dry-Run" },
      ],
    });
  });

  it.each([
    ["a number", schema({ n: { type: "number", "x-mcp-header": "N" } }), /got number/],
    ["an object", schema({ o: { type: "object", "x-mcp-header": "O" } }), /got object/],
    ["no type", schema({ o: { "x-mcp-header": "O" } }), /no single type/],
    ["an empty name", schema({ s: { type: "string", "x-mcp-header": "" } }), /header name token/],
    ["a name with a space", schema({ s: { type: "string", "x-mcp-header": "A B" } }), /header name token/],
    ["a name with CR", schema({ s: { type: "string", "x-mcp-header": "A\rB" } }), /header name token/],
    [
      "names equal but for case",
      schema({ a: { type: "string", "x-mcp-header": "Id" }, b: { type: "string", "x-mcp-header": "ID" } }),
      /unique regardless of case/,
    ],
    ["the root", { type: "string", "x-mcp-header": "R" }, /reached through "properties" alone/],
    [
      "under items",
      schema({ l: { type: "array", items: { type: "string", "x-mcp-header": "I" } } }),
      /alone/,
    ],
    ["under oneOf", schema({}, { oneOf: [schema({ s: { type: "string", "x-mcp-header": "S" } })] }), /alone/],
    ["under $defs", schema({}, { $defs: { d: { type: "string", "x-mcp-header": "D" } } }), /alone/],
    ["under if", schema({}, { if: schema({ s: { type: "string", "x-mcp-header": "S" } }) }), /alone/],
    [
      "under additionalProperties",
      schema({}, { additionalProperties: { type: "string", "x-mcp-header": "A" } }),
      /alone/,
    ],
  ])("rejects a tool with %s", (_what, s, why) => {
    const r = scanHeaderDeclarations(s);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(why);
  });

  it("accepts a schema without annotations, or none at all", () => {
    expect(scanHeaderDeclarations(schema({ a: { type: "string" } }))).toEqual({ ok: true, declarations: [] });
    expect(scanHeaderDeclarations(undefined)).toEqual({ ok: true, declarations: [] });
  });
});

describe("Mcp-Param values", () => {
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    ["", "=?base64??="],
  ])("encodes %j as the spec's table does", (value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
    expect(decodeHeaderValue(header)).toBe(value);
  });

  it("builds headers from arguments; absent and null have none", () => {
    const decls = [
      { path: ["region"], name: "Region" },
      { path: ["n"], name: "N" },
      { path: ["on"], name: "On" },
      { path: ["gone"], name: "Gone" },
      { path: ["nil"], name: "Nil" },
    ];
    expect(paramHeaders(decls, { region: "eu", n: 42, on: false, nil: null })).toEqual({
      ok: true,
      headers: { "Mcp-Param-Region": "eu", "Mcp-Param-N": "42", "Mcp-Param-On": "false" },
    });
  });

  it.each([[1.5], [2 ** 53], [{ a: 1 }], [["x"]]])("cannot mirror %j", (v) => {
    const r = paramHeaders([{ path: ["v"], name: "V" }], { v });
    expect(r.ok).toBe(false);
  });

  it("compares the headers with the judged body", () => {
    const decls = [{ path: ["region"], name: "Region" }];
    expect(headerBodyMismatch(decls, { "mcp-param-region": "eu" }, { region: "eu" })).toBeUndefined();
    expect(headerBodyMismatch(decls, { "Mcp-Param-Region": "us" }, { region: "eu" })).toMatch(
      /would say "us" while the judged body says "eu"/,
    );
    expect(headerBodyMismatch(decls, {}, { region: "eu" })).toMatch(/is missing/);
    expect(headerBodyMismatch(decls, { "Mcp-Param-Region": "eu" }, {})).toMatch(/have no region/);
    expect(
      headerBodyMismatch(decls, { "Mcp-Param-Region": "=?base64?ZXU=?=" }, { region: "eu" }),
    ).toBeUndefined();
  });
});
