// diffSchema word for word: each kind of schema change, its direction (widened/narrowed/changed)
// and severity, for arguments and for output schemas. Expected texts were reviewed by hand.
import { describe, expect, it } from "vitest";
import { diffSchema } from "../../../src/core/pins/schema-diff.js";
import type { Finding } from "../../../src/core/pins/severity.js";

const O = (props: object, extra: object = {}) => ({ type: "object", properties: props, ...extra });

const cases: [string, unknown, unknown, "schema" | "output schema", Finding[]][] = [
  [
    "type",
    O({ p: { type: "string" } }),
    O({ p: { type: "number" } }),
    "schema",
    [{ text: 'schema changed: type of "p" changed from string to number', severity: "high" }],
  ],
  [
    "type out",
    O({ p: { type: "string" } }),
    O({ p: { type: "number" } }),
    "output schema",
    [{ text: 'output schema changed: type of "p" changed from string to number', severity: "medium" }],
  ],
  [
    "type arr",
    O({ p: { type: ["string", "null"] } }),
    O({ p: {} }),
    "schema",
    [{ text: 'schema changed: type of "p" changed from string or null to any', severity: "high" }],
  ],
  [
    "req drop",
    O({ p: {} }, { required: ["p"] }),
    O({ p: {} }),
    "schema",
    [{ text: 'schema widened: "p" no longer required', severity: "high" }],
  ],
  [
    "req add",
    O({ p: {} }),
    O({ p: {} }, { required: ["p"] }),
    "schema",
    [{ text: 'schema narrowed: "p" now required', severity: "medium" }],
  ],
  [
    "req add out",
    O({ p: {} }),
    O({ p: {} }, { required: ["p"] }),
    "output schema",
    [{ text: 'output schema changed: "p" now required', severity: "low" }],
  ],
  [
    "prop add",
    O({ b: {} }),
    O({ b: {}, a: {} }),
    "schema",
    [{ text: 'schema widened: new property "a"', severity: "high" }],
  ],
  [
    "prop rm",
    O({ b: {}, a: {}, c: {} }),
    O({}),
    "schema",
    [
      { text: 'schema narrowed: property "a" removed', severity: "medium" },
      { text: 'schema narrowed: property "b" removed', severity: "medium" },
      { text: 'schema narrowed: property "c" removed', severity: "medium" },
    ],
  ],
  [
    "ap open",
    O({}, { additionalProperties: false }),
    O({}),
    "schema",
    [{ text: "schema widened: the arguments now accepts any additional properties", severity: "high" }],
  ],
  [
    "ap close",
    O({}),
    O({}, { additionalProperties: false }),
    "schema",
    [{ text: "schema narrowed: the arguments no longer accepts additional properties", severity: "medium" }],
  ],
  [
    "ap obj",
    O({}, { additionalProperties: { type: "string" } }),
    O({}, { additionalProperties: { type: "number" } }),
    "schema",
    [{ text: 'schema changed: type of "*" changed from string to number', severity: "high" }],
  ],
  [
    "ap other",
    O({}, { additionalProperties: { type: "string" } }),
    O({}, { additionalProperties: true }),
    "schema",
    [{ text: "schema widened: the arguments now accepts any additional properties", severity: "high" }],
  ],
  [
    "items add",
    { type: "array" },
    { type: "array", items: { type: "string" } },
    "schema",
    [{ text: "schema narrowed: the arguments now constrains its items", severity: "medium" }],
  ],
  [
    "items rm",
    { type: "array", items: { type: "string" } },
    { type: "array" },
    "schema",
    [{ text: "schema widened: the arguments no longer constrains its items", severity: "high" }],
  ],
  [
    "items ch",
    { type: "array", items: { type: "string" } },
    { type: "array", items: { type: "number" } },
    "schema",
    [{ text: 'schema changed: type of "[]" changed from string to number', severity: "high" }],
  ],
  [
    "enum add",
    { type: "string" },
    { type: "string", enum: ["a"] },
    "schema",
    [{ text: 'schema narrowed: the arguments is now limited to ["a"]', severity: "medium" }],
  ],
  [
    "enum rm",
    { type: "string", enum: ["a"] },
    { type: "string" },
    "schema",
    [{ text: 'schema widened: the arguments is no longer limited to ["a"]', severity: "high" }],
  ],
  [
    "enum ch",
    { type: "string", enum: ["a", "b"] },
    { type: "string", enum: ["a", "c"] },
    "schema",
    [
      { text: 'schema widened: the arguments accepts new values "c"', severity: "high" },
      { text: 'schema narrowed: the arguments no longer accepts "b"', severity: "medium" },
    ],
  ],
  [
    "nonobj",
    O({ p: true }),
    O({ p: { type: "string" } }),
    "schema",
    [{ text: 'schema changed: "p" changed from true to {"type":"string"}', severity: "high" }],
  ],
  [
    "long",
    O({ p: { const: "x".repeat(100) } }),
    O({ p: { const: "y" } }),
    "schema",
    [
      {
        text: 'schema changed: fixed value of "p" changed from "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... to "y"',
        severity: "high",
      },
    ],
  ],
  [
    "desc",
    O({ p: { description: "a" } }),
    O({ p: { description: "b" } }),
    "schema",
    [{ text: 'schema changed: description of "p" changed', severity: "high", was: "a", now: "b" }],
  ],
  [
    "other",
    O({ p: { minimum: 1 } }),
    O({ p: { minimum: 2 } }),
    "schema",
    [{ text: 'schema changed: minimum of "p" changed from 1 to 2', severity: "medium" }],
  ],
  ["same", O({ p: {} }), O({ p: {} }), "schema", []],
];

describe("diffSchema", () => {
  it.each(cases)("%s", (_name, before, after, label, expected) => {
    expect(diffSchema(before, after, label)).toEqual(expected);
  });
});
