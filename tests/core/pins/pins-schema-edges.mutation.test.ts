// diffSchema at its edges: schemas that are not objects, sub-schemas that did not change, output
// schemas (never "widened"), enum order, descriptions that appear, defaults, constraints and
// keywords it has no rule for. Expected sentences written by hand from the rules in schema-diff.ts.
import { describe, expect, it } from "vitest";
import { diffSchema } from "../../../src/core/pins/schema-diff.js";

const O = (props: object, extra: object = {}) => ({ type: "object", properties: props, ...extra });

describe("schemas that are not objects", () => {
  it("says what it was and what it is", () => {
    expect(diffSchema(null, { type: "object" })).toEqual([
      { text: 'schema changed: the arguments changed from null to {"type":"object"}', severity: "high" },
    ]);
    expect(diffSchema(undefined, { type: "object" })).toEqual([
      { text: 'schema changed: the arguments changed from undefined to {"type":"object"}', severity: "high" },
    ]);
    expect(diffSchema("x", { type: "object" })).toEqual([
      { text: 'schema changed: the arguments changed from "x" to {"type":"object"}', severity: "high" },
    ]);
    expect(diffSchema([], {}, "output schema")).toEqual([
      { text: "output schema changed: the arguments changed from [] to {}", severity: "medium" },
    ]);
  });

  it("shows values of up to 80 characters whole", () => {
    const at80 = "x".repeat(78); // JSON adds two quotes
    expect(diffSchema(O({ p: { const: at80 } }), O({ p: { const: "y" } }))[0]?.text).toBe(
      `schema changed: fixed value of "p" changed from "${at80}" to "y"`,
    );
    const at81 = "x".repeat(79);
    expect(diffSchema(O({ p: { const: at81 } }), O({ p: { const: "y" } }))[0]?.text).toBe(
      `schema changed: fixed value of "p" changed from "${at81.slice(0, 76)}... to "y"`,
    );
  });

  it("still reports a change no rule words", () => {
    expect(diffSchema({ properties: [] }, { properties: "x" })).toEqual([
      { text: "schema changed", severity: "medium" },
    ]);
    expect(diffSchema({ required: "a" }, { required: "b" }, "output schema")).toEqual([
      { text: "output schema changed", severity: "medium" },
    ]);
    expect(diffSchema({ a: 1 }, { a: 1 })).toEqual([]);
  });
});

describe("what changed, and only that", () => {
  it("says nothing of sub-schemas that stayed the same", () => {
    expect(diffSchema(O({ x: true, y: { type: "string" } }), O({ x: true, y: { type: "number" } }))).toEqual([
      { text: 'schema changed: type of "y" changed from string to number', severity: "high" },
    ]);
  });

  it("names only the requirements that were dropped or added", () => {
    expect(diffSchema(O({}, { required: ["a", "b"] }), O({}, { required: ["a", "c"] }))).toEqual([
      { text: 'schema widened: "b" no longer required', severity: "high" },
      { text: 'schema narrowed: "c" now required', severity: "medium" },
    ]);
    expect(diffSchema(O({}, { required: ["a"] }), O({}, { required: ["a"] }))).toEqual([]);
  });

  it("never calls an output schema widened or narrowed", () => {
    expect(diffSchema(O({}, { required: ["a"] }), O({}), "output schema")).toEqual([
      { text: 'output schema changed: "a" no longer required', severity: "medium" },
    ]);
    expect(
      diffSchema(O({ p: { description: "a" } }), O({ p: { description: "b" } }), "output schema"),
    ).toEqual([
      { text: 'output schema changed: description of "p" changed', severity: "medium", was: "a", now: "b" },
    ]);
  });

  it("words enum changes by direction, and a new order as low", () => {
    expect(diffSchema({ enum: ["a", "b"] }, { enum: ["b", "a"] })).toEqual([
      { text: "schema changed: order of values of the arguments changed", severity: "low" },
    ]);
    expect(diffSchema({ enum: ["a", "b"] }, { enum: ["a"] })).toEqual([
      { text: 'schema narrowed: the arguments no longer accepts "b"', severity: "medium" },
    ]);
    expect(diffSchema({ enum: ["a"] }, { enum: ["a", 1] })).toEqual([
      { text: "schema widened: the arguments accepts new values 1", severity: "high" },
    ]);
  });

  it("walks into additional properties only when both are schemas", () => {
    expect(diffSchema({ additionalProperties: false }, { additionalProperties: { type: "string" } })).toEqual(
      [
        {
          text: 'schema changed: additionalProperties of the arguments changed from false to {"type":"string"}',
          severity: "medium",
        },
      ],
    );
  });

  it("words a description that appears, with nothing before it", () => {
    expect(diffSchema(O({ p: {} }), O({ p: { description: "now" } }))).toEqual([
      { text: 'schema changed: description of "p" changed', severity: "high", was: null, now: "now" },
    ]);
    expect(diffSchema(O({ p: { description: 5 } }), O({ p: { description: "x" } }))[0]).toMatchObject({
      was: null,
      now: "x",
    });
    expect(diffSchema(O({ p: { description: "x" } }), O({ p: { description: ["x"] } }))[0]).toMatchObject({
      was: "x",
      now: null,
    });
  });

  it("words defaults and fixed values", () => {
    expect(diffSchema(O({ p: { default: 1 } }), O({ p: { default: 2 } }))).toEqual([
      { text: 'schema changed: default of "p" changed from 1 to 2', severity: "medium" },
    ]);
    expect(diffSchema(O({ p: {} }), O({ p: { const: "k" } }))).toEqual([
      { text: 'schema changed: fixed value of "p" changed from undefined to "k"', severity: "high" },
    ]);
  });

  it("words constraints gained and lost", () => {
    expect(diffSchema(O({ p: {} }), O({ p: { maxLength: 5 } }))).toEqual([
      { text: 'schema narrowed: "p" gained the constraint maxLength 5', severity: "medium" },
    ]);
    expect(diffSchema(O({ p: { pattern: "^a" } }), O({ p: {} }))).toEqual([
      { text: 'schema widened: "p" lost the constraint pattern "^a"', severity: "high" },
    ]);
  });

  it("words keywords it has no rule for, in name order, skipping those that stayed", () => {
    expect(
      diffSchema({ zeta: 1, alpha: 1, same: [1], gone: true }, { zeta: 2, beta: "b", same: [1], alpha: 1 }),
    ).toEqual([
      { text: 'schema changed: the arguments gained "beta" "b"', severity: "medium" },
      { text: 'schema changed: the arguments lost "gone" true', severity: "medium" },
      { text: 'schema changed: "zeta" of the arguments changed from 1 to 2', severity: "medium" },
    ]);
  });
});

describe("every JSON Schema constraint keyword", () => {
  // Losing a constraint lets more arguments through (high); gaining one lets fewer (medium). A
  // keyword effectgate did not know would only be reported as "changed".
  const KEYWORDS = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "contains",
    "not",
  ];
  it.each(KEYWORDS)("%s: losing it widens, gaining it narrows", (k) => {
    const plain = O({ a: { type: "string" } });
    const constrained = O({ a: { type: "string", [k]: 3 } });
    expect(diffSchema(constrained, plain)).toEqual([
      { text: `schema widened: "a" lost the constraint ${k} 3`, severity: "high" },
    ]);
    expect(diffSchema(plain, constrained)).toEqual([
      { text: `schema narrowed: "a" gained the constraint ${k} 3`, severity: "medium" },
    ]);
  });
});
