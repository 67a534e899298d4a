// Edges of x-mcp-header scanning, value encoding and header/body comparison that the main tests
// leave open (found by Stryker): every subschema keyword, the exact reasons, and the bounds of
// plain text and of the Base64 form.
import { describe, expect, it } from "vitest";
import {
  decodeHeaderValue,
  encodeHeaderValue,
  headerBodyMismatch,
  paramHeaders,
  scanHeaderDeclarations,
} from "../../../src/core/remote/param-headers.js";

const annotated = { type: "string", "x-mcp-header": "H" };
const object = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: props,
  ...extra,
});

describe("x-mcp-header declarations, every place an annotation may not sit", () => {
  it.each([
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
  ])("under %s", (k) => {
    expect(scanHeaderDeclarations(object({ p: { [k]: object({ s: annotated }) } }))).toEqual({
      ok: false,
      reason: `x-mcp-header at p.(${k}).s: expected it only on a property reached through "properties" alone`,
    });
  });

  it.each(["prefixItems", "allOf", "anyOf", "oneOf"])("under any entry of %s", (k) => {
    // The bad entry comes after a harmless one: every entry is looked at.
    expect(scanHeaderDeclarations(object({}, { [k]: [{}, object({ s: annotated })] }))).toEqual({
      ok: false,
      reason: `x-mcp-header at (${k}).s: expected it only on a property reached through "properties" alone`,
    });
  });

  it.each(["patternProperties", "dependentSchemas", "$defs", "definitions"])("under any entry of %s", (k) => {
    expect(scanHeaderDeclarations(object({}, { [k]: { a: {}, b: annotated } }))).toEqual({
      ok: false,
      reason: `x-mcp-header at (${k}): expected it only on a property reached through "properties" alone`,
    });
  });

  it("names the schema root when the annotation is there", () => {
    expect(scanHeaderDeclarations({ type: "string", "x-mcp-header": "R" })).toEqual({
      ok: false,
      reason:
        'x-mcp-header at the schema root: expected it only on a property reached through "properties" alone',
    });
  });
});

describe("x-mcp-header declarations, what is accepted", () => {
  it("takes string, integer and boolean properties", () => {
    const r = scanHeaderDeclarations(
      object({
        s: { type: "string", "x-mcp-header": "S" },
        i: { type: "integer", "x-mcp-header": "I" },
        b: { type: "boolean", "x-mcp-header": "B" },
      }),
    );
    expect(r.ok && r.declarations.map((d) => d.name)).toEqual(["S", "I", "B"]);
  });

  it.each([[123], [true], [["Name"]], [null]])("refuses the non-text name %j", (name) => {
    expect(scanHeaderDeclarations(object({ opt: { type: "string", "x-mcp-header": name } }))).toEqual({
      ok: false,
      reason: `x-mcp-header at opt: expected a header name token, got ${JSON.stringify(name)}`,
    });
  });

  it("names the path of a property of the wrong type", () => {
    expect(
      scanHeaderDeclarations(object({ opts: object({ n: { type: "number", "x-mcp-header": "N" } }) })),
    ).toEqual({
      ok: false,
      reason: 'x-mcp-header "N" at opts.n: expected a string, integer or boolean property, got number',
    });
    expect(scanHeaderDeclarations(object({ t: { type: ["string"], "x-mcp-header": "T" } }))).toEqual({
      ok: false,
      reason: 'x-mcp-header "T" at t: expected a string, integer or boolean property, got no single type',
    });
  });

  it("passes over null and list schemas (JSON allows them anywhere)", () => {
    expect(scanHeaderDeclarations(object({ a: null, b: [annotated] }, { not: null, items: [1] }))).toEqual({
      ok: true,
      declarations: [],
    });
  });
});

describe("Mcp-Param values at the edges of plain text", () => {
  it.each(["a\tb", "a b", "a~b", "!", "=?base64?xyz", "plain-value?="])("keeps %j as it is", (s) => {
    expect(encodeHeaderValue(s)).toBe(s);
    expect(decodeHeaderValue(s)).toBe(s);
  });

  it.each(["a\u007fb", "a\u001fb", "\tlead", "trail\t"])("encodes %j", (s) => {
    expect(encodeHeaderValue(s)).toBe(`=?base64?${Buffer.from(s, "utf8").toString("base64")}?=`);
    expect(decodeHeaderValue(encodeHeaderValue(s))).toBe(s);
  });

  it("reads a long plain value, and a sentinel too short to hold Base64, as themselves", () => {
    expect(decodeHeaderValue("a-plain-header-value")).toBe("a-plain-header-value");
    // "=?base64?" and "?=" overlap here: no payload between them.
    expect(decodeHeaderValue("=?base64?=")).toBe("=?base64?=");
  });

  it.each(["=?base64?abc?=", "=?base64?!abc?=", "=?base64?abc!?=", "=?base64?ab=c?=", "=?base64?a===?="])(
    "refuses the malformed Base64 of %j",
    (v) => {
      expect(decodeHeaderValue(v)).toBeUndefined();
    },
  );
});

describe("Mcp-Param headers from arguments", () => {
  it("mirrors true, and only own properties of objects", () => {
    const decls = [
      { path: ["on"], name: "On" },
      { path: ["constructor"], name: "Ctor" },
      { path: ["s", "length"], name: "Len" },
      { path: ["l", "0"], name: "First" },
      { path: ["nil", "x"], name: "Deep" },
    ];
    expect(paramHeaders(decls, { on: true, s: "abc", l: ["x"], nil: null })).toEqual({
      ok: true,
      headers: { "Mcp-Param-On": "true" },
    });
  });

  it.each([
    [1.5, "the number 1.5"],
    [["x"], "a list"],
    [{ a: 1 }, "object"],
  ])("says why %j cannot be mirrored", (v, got) => {
    expect(paramHeaders([{ path: ["opts", "v"], name: "V" }], { opts: { v } })).toEqual({
      ok: false,
      problem: `argument opts.v (mirrored as Mcp-Param-V): expected a string, a boolean or an integer within ±(2^53−1), got ${got}`,
    });
  });
});

describe("headers compared with the judged body", () => {
  const decls = [{ path: ["opts", "region"], name: "Region" }];

  it("accepts an argument that is absent or null with no header", () => {
    expect(headerBodyMismatch(decls, {}, {})).toBeUndefined();
    expect(headerBodyMismatch(decls, {}, { opts: { region: null } })).toBeUndefined();
  });

  it("names the nested path in each disagreement", () => {
    expect(headerBodyMismatch(decls, { "Mcp-Param-Region": "eu" }, { opts: {} })).toBe(
      "Mcp-Param-Region is set but the judged arguments have no opts.region",
    );
    expect(headerBodyMismatch(decls, {}, { opts: { region: "eu" } })).toBe(
      "the judged arguments have opts.region but Mcp-Param-Region is missing",
    );
    expect(headerBodyMismatch(decls, { "Mcp-Param-Region": "1.5" }, { opts: { region: 1.5 } })).toBe(
      "argument opts.region: expected a string, a boolean or an integer within ±(2^53−1), got the number 1.5",
    );
  });

  it("quotes what a header decodes to, or the header itself when it does not decode", () => {
    expect(
      headerBodyMismatch(decls, { "Mcp-Param-Region": "=?base64?dXM=?=" }, { opts: { region: "eu" } }),
    ).toBe('Mcp-Param-Region would say "us" while the judged body says "eu"');
    expect(
      headerBodyMismatch(decls, { "Mcp-Param-Region": "=?base64?abc?=" }, { opts: { region: "eu" } }),
    ).toBe('Mcp-Param-Region would say "=?base64?abc?=" while the judged body says "eu"');
  });
});
