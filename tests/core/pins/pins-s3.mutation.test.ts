// Round-3 mutation tests for src/core/pins: what a reviewer reads in schema and entry diffs, the
// lock file's hash and item shapes, and the wording and paging of PinState's refusals.
import { describe, expect, it } from "vitest";
import { canonicalHash } from "../../../src/core/json/jcs.js";
import { buildEntry, diffEntry, type LiveServer } from "../../../src/core/pins/entry.js";
import { LockFile, type LockEntry } from "../../../src/core/pins/lock.js";
import { pinTool, type ToolPin } from "../../../src/core/pins/pin.js";
import { diffSchema } from "../../../src/core/pins/schema-diff.js";
import { PinState } from "../../../src/core/pins/state.js";

const obj = { type: "object" };
const HEX = "0123456789abcdef".repeat(4);

function pin(tool: unknown): ToolPin {
  const r = pinTool(tool);
  if (!r.ok) throw new Error(r.error);
  return r.pin;
}

describe("diffSchema wording", () => {
  it("calls a missing type 'any' when a property gains one", () => {
    const out = diffSchema(
      { ...obj, properties: { x: {} } },
      { ...obj, properties: { x: { type: "string" } } },
    );
    expect(out).toHaveLength(1);
    expect(out[0]?.severity).toBe("high");
    expect(out[0]?.text).toContain('"x"');
    expect(out[0]?.text).toMatch(/\bany\b.*\bstring\b/);
  });

  it("lists added and removed enum values one by one, separated", () => {
    const out = diffSchema({ enum: ["a", "b", "c"] }, { enum: ["a", "d", "e"] });
    const widened = out.find((f) => f.text.includes('"d"'));
    const narrowed = out.find((f) => f.text.includes('"b"'));
    expect(widened?.text).toMatch(/"d"\s*,\s*"e"/);
    expect(narrowed?.text).toMatch(/"b"\s*,\s*"c"/);
    expect(widened?.severity).toBe("high");
    expect(narrowed?.severity).toBe("medium");
  });

  it("keeps a low change low in an output schema (only high is softened there)", () => {
    const out = diffSchema({ enum: ["a", "b"] }, { enum: ["b", "a"] }, "output schema");
    expect(out).toHaveLength(1);
    expect(out[0]?.text).toContain("order");
    expect(out[0]?.severity).toBe("low");
  });

  it("says nothing about a fixed value, description or default that did not change", () => {
    const before = { type: "string", const: "x", description: "d", default: "x", maxLength: 3 };
    const out = diffSchema(before, { ...before, maxLength: 4 });
    expect(out).toHaveLength(1);
    expect(out[0]?.text).toContain("maxLength");
    for (const kept of [{ const: "x" }, { description: "d" }, { default: "x" }]) {
      const a = { type: "string", ...kept, minLength: 1 };
      expect(diffSchema(a, { ...a, minLength: 2 }).map((f) => f.text)).toEqual([
        expect.stringContaining("minLength"),
      ]);
    }
  });
});

describe("diffEntry environment names", () => {
  it("lists removed names in sorted order even when the lock holds them unsorted", () => {
    const live: LiveServer = {
      argv: ["node", "s.js"],
      envNames: [],
      tools: [{ name: "t", inputSchema: obj }],
    };
    const r = buildEntry(live);
    if (!r.ok) throw new Error(r.problems.join("; "));
    // A hand-written lock may list env names in any order; the diff must still read sorted.
    const entry: LockEntry = { ...r.entry, env: ["ZED", "ALPHA", "MID"] };
    const removed = diffEntry(entry, live).server.find((f) => f.text.includes("removed"));
    expect(removed?.text).toMatch(/ALPHA.*MID.*ZED/);
  });
});

describe("LockFile shape", () => {
  const entry = (over: Record<string, unknown> = {}): unknown => ({
    version: 1,
    servers: {
      s: {
        command: "node",
        args: [],
        env: [],
        tools: { t: { description: null, inputSchema: obj, hash: HEX } },
        ...over,
      },
    },
  });

  it("accepts exactly 64 lower-case hex digits as a hash, and says so when refusing", () => {
    expect(LockFile.safeParse(entry()).success).toBe(true);
    for (const bad of [`x${HEX}`, `${HEX}x`, ` ${HEX}`, `${HEX}\n`, HEX.toUpperCase()]) {
      const r = LockFile.safeParse(
        entry({ tools: { t: { description: null, inputSchema: obj, hash: bad } } }),
      );
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/SHA-256/);
      expect(r.error?.issues[0]?.message).toMatch(/hex/);
    }
  });

  it("accepts the fields a prompt and a resource template are pinned with", () => {
    const prompts = { p: { title: "P", description: "d", arguments: [{ name: "a" }], hash: HEX } };
    const resourceTemplates = {
      r: {
        title: "R",
        uriTemplate: "file:///{x}",
        description: "d",
        mimeType: "text/plain",
        annotations: {},
        hash: HEX,
      },
    };
    const r = LockFile.safeParse(entry({ prompts, resourceTemplates }));
    expect(r.error?.issues).toBeUndefined();
    expect(r.data?.servers["s"]?.prompts).toEqual(prompts);
    expect(r.data?.servers["s"]?.resourceTemplates).toEqual(resourceTemplates);
    // They are still strict: an unknown field or a bad hash is refused.
    expect(LockFile.safeParse(entry({ prompts: { p: { hash: HEX, extra: 1 } } })).success).toBe(false);
    expect(LockFile.safeParse(entry({ resourceTemplates: { r: { hash: "nope" } } })).success).toBe(false);
    expect(canonicalHash("x")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("PinState refusals and listings", () => {
  const base = { name: "t", description: "d", inputSchema: obj };

  it("joins several reasons for a changed tool and names the tool once", () => {
    const s = new PinState(new Map([["t", pin(base)]]));
    s.observeList([{ ...base, description: "new", title: "T" }]);
    const r = s.checkCall("t");
    expect(r.ok).toBe(false);
    const reason = r.ok ? "" : r.reason;
    expect(reason).toMatch(/description changed\W+title changed/);
    expect(reason.split('tool "t"')).toHaveLength(2);
  });

  it("takes each observeListDetailed call without a page as one complete listing", () => {
    const s = new PinState(
      new Map([
        ["t", pin(base)],
        ["u", pin({ ...base, name: "u" })],
      ]),
    );
    // A complete listing: u is missing, so it is reported removed.
    const first = s.observeListDetailed([{ ...base, description: "evil" }]);
    expect(first.map((c) => [c.tool, c.kind])).toEqual([
      ["t", "changed"],
      ["u", "removed"],
    ]);
    // A second complete listing starts over: the approved text again is not a duplicate of
    // the first listing's t, and nothing new is reported.
    expect(s.observeListDetailed([base, { ...base, name: "u" }])).toEqual([]);
    // t stays refused for the session.
    expect(s.checkCall("t").ok).toBe(false);
    expect(s.checkCall("u")).toEqual({ ok: true });
  });
});
