import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pinTool } from "../../../src/core/pins/pin.js";
import { compareTools } from "../../../src/core/pins/compare.js";

// A JSON value generator whose objects have unique keys (as parsed JSON does).
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    tie("arr"),
    tie("obj"),
  ),
  arr: fc.array(tie("value"), { maxLength: 4 }),
  obj: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie("value"), { maxKeys: 5 }),
})).value;

const schema = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 8 }), json, { maxKeys: 6 })
  .map((props) => ({ type: "object", properties: props }));
const tool = fc.record({
  name: fc.string({ minLength: 1, maxLength: 12 }),
  description: fc.string(),
  inputSchema: schema,
});

/** The same value with every object's keys in a shuffled order (seeded by `seed`). */
function reorder(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reorder(v, seed + i));
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    const shuffled = entries
      .map((e, i) => ({ e, k: Math.sin(seed * 31 + i * 17) }))
      .sort((a, b) => a.k - b.k);
    return Object.fromEntries(shuffled.map(({ e: [k, v] }) => [k, reorder(v, seed + 1)]));
  }
  return value;
}

const hashOf = (t: unknown): string => {
  const r = pinTool(t);
  if (!r.ok) throw new Error(r.error);
  return r.pin.hash;
};

describe("tool pin hashes", () => {
  it("never change when keys are reordered or whitespace differs", () => {
    fc.assert(
      fc.property(tool, fc.integer(), fc.integer({ min: 0, max: 4 }), (t, seed, indent) => {
        const respelled = JSON.parse(JSON.stringify(reorder(t, seed), null, indent)) as unknown;
        expect(hashOf(respelled)).toBe(hashOf(t));
      }),
    );
  });

  it("never report a change when the tool list is reordered", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(tool, { selector: (t) => t.name, maxLength: 6 }),
        fc.integer(),
        (tools, seed) => {
          const approved = new Map(
            tools.map((t) => {
              const r = pinTool(t);
              if (!r.ok) throw new Error(r.error);
              return [r.pin.name, r.pin] as const;
            }),
          );
          const shuffled = [...tools]
            .sort((a, b) => Math.sin(seed + a.name.length) - Math.sin(seed + b.name.length))
            .map((t, i) => reorder(t, seed + i));
          expect(compareTools(approved, shuffled)).toEqual([]);
        },
      ),
    );
  });

  it("always change when the description changes", () => {
    fc.assert(
      fc.property(tool, fc.string(), (t, other) => {
        fc.pre(other !== t.description);
        expect(hashOf({ ...t, description: other })).not.toBe(hashOf(t));
      }),
    );
  });

  it("always change when any value inside the schema changes", () => {
    fc.assert(
      fc.property(tool, fc.string({ minLength: 1, maxLength: 8 }), json, (t, key, value) => {
        const props = t.inputSchema.properties as Record<string, unknown>;
        fc.pre(
          JSON.stringify(props[key]) !== JSON.stringify(value) &&
            Object.hasOwn(props, key) === (props[key] !== undefined),
        );
        const changed = { ...t, inputSchema: { ...t.inputSchema, properties: { ...props, [key]: value } } };
        expect(hashOf(changed)).not.toBe(hashOf(t));
      }),
    );
  });

  it("treats an absent description and an absent title the same as null, and nothing else", () => {
    const base = { name: "t", inputSchema: { type: "object" } };
    expect(hashOf(base)).toBe(hashOf({ ...base, description: null }));
    expect(hashOf(base)).not.toBe(hashOf({ ...base, description: "" }));
    expect(hashOf(base)).not.toBe(hashOf({ ...base, title: "t" }));
    expect(hashOf(base)).not.toBe(hashOf({ ...base, annotations: { readOnlyHint: true } }));
    expect(hashOf(base)).not.toBe(hashOf({ ...base, outputSchema: { type: "object" } }));
  });

  it("refuses to pin what it cannot check, saying why", () => {
    expect(pinTool({ name: "t", inputSchema: null })).toEqual({
      ok: false,
      name: "t",
      error: "inputSchema: expected an object schema, got null",
    });
    expect(pinTool({ name: "t", description: 5, inputSchema: {} })).toMatchObject({
      ok: false,
      error: expect.stringContaining("description: expected a string"),
    });
    expect(pinTool({ name: "t", inputSchema: { type: "object", default: Number.NaN } })).toMatchObject({
      ok: false,
      error: expect.stringContaining("canonical form"),
    });
    expect(pinTool("read_file")).toMatchObject({ ok: false, name: "" });
  });
});
