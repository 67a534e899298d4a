// Exact-value tests for tool pinning: every refusal message, severity and report line, so that a
// mutant that changes a sentence, a severity or a comparison fails here.
import { describe, expect, it } from "vitest";
import { compareTools, compareToolsDetailed, diffTool } from "../../../src/core/pins/compare.js";
import { escapeForTerminal } from "../../../src/core/pins/escape.js";
import {
  pinItem,
  pinnedContent,
  pinTool,
  PROMPT_KEYS,
  TEMPLATE_KEYS,
  type ToolPin,
} from "../../../src/core/pins/pin.js";
import { formatReport, reportLines } from "../../../src/core/pins/report.js";
import { maxSeverity } from "../../../src/core/pins/severity.js";
import { PinState } from "../../../src/core/pins/state.js";
import { canonicalHash } from "../../../src/core/json/jcs.js";

const obj = { type: "object" };

function pin(tool: unknown): ToolPin {
  const r = pinTool(tool);
  if (!r.ok) throw new Error(r.error);
  return r.pin;
}

const base = { name: "t", description: "d", inputSchema: obj };

describe("pinTool", () => {
  it("refuses each malformed field with its own message", () => {
    expect(pinTool(null)).toEqual({ ok: false, name: "", error: "expected a tool object, got null" });
    expect(pinTool([1])).toEqual({ ok: false, name: "", error: "expected a tool object, got a list" });
    expect(pinTool({ inputSchema: obj })).toEqual({
      ok: false,
      name: "",
      error: "name: expected a non-empty string, got undefined undefined",
    });
    expect(pinTool({ name: "", inputSchema: obj })).toEqual({
      ok: false,
      name: "",
      error: 'name: expected a non-empty string, got ""',
    });
    expect(pinTool({ name: 7, inputSchema: obj })).toMatchObject({ ok: false, name: "" });
    expect(pinTool({ name: "__proto__", inputSchema: obj })).toEqual({
      ok: false,
      name: "__proto__",
      error: 'name: "__proto__" cannot be stored in a lock file',
    });
    expect(pinTool({ ...base, description: 3 })).toEqual({
      ok: false,
      name: "t",
      error: "description: expected a string, got number 3",
    });
    expect(pinTool({ ...base, title: false })).toEqual({
      ok: false,
      name: "t",
      error: "title: expected a string, got boolean false",
    });
    expect(pinTool({ name: "t" })).toEqual({
      ok: false,
      name: "t",
      error: "inputSchema: expected an object schema, got undefined undefined",
    });
    expect(pinTool({ ...base, inputSchema: [] })).toMatchObject({
      ok: false,
      error: /^inputSchema: .*a list$/,
    });
    expect(pinTool({ ...base, outputSchema: "x" })).toEqual({
      ok: false,
      name: "t",
      error: 'outputSchema: expected an object schema, got "x"',
    });
    expect(pinTool({ ...base, outputSchema: [] })).toMatchObject({ ok: false, error: /^outputSchema/ });
    expect(pinTool({ ...base, annotations: [] })).toEqual({
      ok: false,
      name: "t",
      error: "annotations: expected an object, got a list",
    });
    expect(pinTool({ ...base, annotations: 1 })).toMatchObject({ ok: false, error: /^annotations/ });
    expect(pinTool({ ...base, inputSchema: { n: Infinity } })).toEqual({
      ok: false,
      name: "t",
      error: "cannot be put in canonical form: expected a finite number, got Infinity",
    });
  });

  it("spells absent optional fields as null and hashes every pinned field", () => {
    const p = pin(base);
    expect(p).toEqual({
      name: "t",
      description: "d",
      inputSchema: obj,
      outputSchema: null,
      annotations: null,
      title: null,
      meta: null,
      hash: canonicalHash({
        name: "t",
        title: null,
        description: "d",
        inputSchema: obj,
        outputSchema: null,
        annotations: null,
      }),
    });
    expect(pin({ name: "t", inputSchema: obj }).description).toBeNull();
    const fields = { ...base, title: "T", outputSchema: obj, annotations: { a: 1 } };
    expect(pin(fields).title).toBe("T");
    expect(pinnedContent({ ...pin(fields) })).toEqual({
      name: "t",
      title: "T",
      description: "d",
      inputSchema: obj,
      outputSchema: obj,
      annotations: { a: 1 },
    });
    const hashes = new Set(
      [
        base,
        { ...base, title: "x" },
        { ...base, outputSchema: obj },
        { ...base, annotations: {} },
        { ...base, name: "u" },
        { ...base, _meta: {} },
        { ...base, _meta: { "ui/resourceUri": "ui://a" } },
      ].map((t) => pin(t).hash),
    );
    expect(hashes.size).toBe(7);
  });

  it("pins _meta, and hashes a tool without it as before it was pinned", () => {
    const meta = { "ui/resourceUri": "ui://app/x", vendor: { hint: 1 } };
    const p = pin({ ...base, _meta: meta });
    expect(p.meta).toEqual(meta);
    expect(pinnedContent(p)).toEqual({
      name: "t",
      title: null,
      description: "d",
      inputSchema: obj,
      outputSchema: null,
      annotations: null,
      _meta: meta,
    });
    expect(pin({ ...base, _meta: null }).hash).toBe(pin(base).hash);
    expect(pinTool({ ...base, _meta: "x" })).toEqual({
      ok: false,
      name: "t",
      error: '_meta: expected an object, got "x"',
    });
    expect(pinTool({ ...base, _Meta: { a: 1 } })).toMatchObject({ ok: false, name: "t" });
  });
});

describe("pinItem", () => {
  it("pins the listed keys only, and refuses what it cannot pin", () => {
    expect(PROMPT_KEYS).toEqual(["title", "description", "arguments"]);
    expect(TEMPLATE_KEYS).toEqual(["title", "uriTemplate", "description", "mimeType", "annotations"]);
    const r = pinItem({ name: "p", description: "x", _meta: { a: 1 }, title: undefined }, PROMPT_KEYS);
    expect(r).toEqual({
      ok: true,
      name: "p",
      fields: { description: "x" },
      hash: canonicalHash({ name: "p", description: "x" }),
    });
    expect(pinItem("x", PROMPT_KEYS)).toEqual({ ok: false, name: "", error: 'expected an object, got "x"' });
    expect(pinItem({ name: "" }, PROMPT_KEYS)).toEqual({
      ok: false,
      name: "",
      error: 'name: expected a non-empty string, got ""',
    });
    expect(pinItem({ name: 1 }, PROMPT_KEYS)).toMatchObject({ ok: false, name: "" });
    expect(pinItem({ name: "__proto__" }, PROMPT_KEYS)).toEqual({
      ok: false,
      name: "__proto__",
      error: 'name: "__proto__" cannot be stored in a lock file',
    });
    expect(pinItem({ name: "p", arguments: [NaN] }, PROMPT_KEYS)).toEqual({
      ok: false,
      name: "p",
      error: "cannot be put in canonical form: expected a finite number, got NaN",
    });
  });
});

describe("diffTool", () => {
  const a = pin({ ...base, title: "A", outputSchema: obj, annotations: { readOnlyHint: true } });

  it("words each kind of difference with its severity and texts", () => {
    expect(
      diffTool(
        a,
        pin({
          ...base,
          description: "e",
          title: "A",
          outputSchema: obj,
          annotations: { readOnlyHint: true },
        }),
      ),
    ).toEqual([{ text: "description changed", severity: "high", was: "d", now: "e" }]);
    expect(
      diffTool(a, pin({ ...base, title: "B", outputSchema: obj, annotations: { readOnlyHint: true } })),
    ).toEqual([{ text: "title changed", severity: "medium", was: "A", now: "B" }]);
    expect(diffTool(a, pin({ ...base, title: "A", annotations: { readOnlyHint: true } }))).toEqual([
      { text: "output schema removed", severity: "medium" },
    ]);
    const noOut = pin({ ...base, title: "A", annotations: { readOnlyHint: true } });
    expect(diffTool(noOut, a)).toEqual([{ text: "output schema added", severity: "low" }]);
    expect(
      diffTool(a, pin({ ...base, title: "A", outputSchema: obj, annotations: { readOnlyHint: false } })),
    ).toEqual([{ text: "annotation readOnlyHint changed from true to false", severity: "medium" }]);
    expect(diffTool(a, pin({ ...base, title: "A", outputSchema: obj }))).toEqual([
      { text: "annotation readOnlyHint changed from true to null", severity: "medium" },
    ]);
    expect(diffTool(noOut, pin({ ...base, title: "A" }))).toEqual([
      { text: "annotation readOnlyHint changed from true to null", severity: "medium" },
    ]);
    expect(diffTool(a, a)).toEqual([]);
  });

  it("lists annotation changes in name order, skipping equal ones", () => {
    const x = pin({ ...base, annotations: { z: 1, b: 1, same: 2 } });
    const y = pin({ ...base, annotations: { b: 2, z: 2, same: 2 } });
    expect(diffTool(x, y).map((f) => f.text)).toEqual([
      "annotation b changed from 1 to 2",
      "annotation z changed from 1 to 2",
    ]);
  });

  it("diffs changed schemas field by field and falls back to 'definition changed'", () => {
    const s1 = pin({ ...base, inputSchema: { type: "object", properties: { p: { type: "string" } } } });
    const s2 = pin({ ...base, inputSchema: { type: "object", properties: { p: { type: "number" } } } });
    const f = diffTool(s1, s2);
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((x) => x.text.startsWith("schema"))).toBe(true);
    const o1 = pin({ ...base, outputSchema: { type: "object", properties: { p: { type: "string" } } } });
    const o2 = pin({ ...base, outputSchema: { type: "object", properties: { p: { type: "number" } } } });
    expect(diffTool(o1, o2).every((x) => x.text.startsWith("output schema"))).toBe(true);
    // Same fields, different hash (a pin edited by hand): still a change.
    expect(diffTool(a, { ...a, hash: "0" })).toEqual([{ text: "definition changed", severity: "medium" }]);
  });
});

describe("compareTools", () => {
  const approved = new Map([
    ["t", pin(base)],
    ["gone", pin({ ...base, name: "gone" })],
    ["also", pin({ ...base, name: "also" })],
  ]);

  it("reports unpinnable, duplicate, new, changed and removed tools in that order", () => {
    const out = compareToolsDetailed(approved, [
      { ...base, description: "e" },
      { name: "" },
      { ...base, description: "f" },
      { ...base, description: "f" },
      { ...base, name: "new", description: "n" },
      { ...base, name: "also" },
      { ...base, name: "also" },
    ]);
    expect(out.map((c) => [c.tool, c.kind, c.severity, c.sentences])).toEqual([
      ["t", "changed", "high", ['tool "t": description changed']],
      [
        "(unnamed)",
        "unverifiable",
        "high",
        ['tool "(unnamed)": cannot be checked: name: expected a non-empty string, got ""'],
      ],
      ["t", "unverifiable", "high", ['tool "t": listed twice with different definitions']],
      ["new", "added", "high", ['new tool "new"']],
      ["gone", "removed", "low", ['tool "gone" removed']],
    ]);
    expect(out[3]?.findings).toEqual([{ text: "new tool, not approved", severity: "high", now: "n" }]);
    expect(out[4]?.findings).toEqual([{ text: "removed", severity: "low" }]);
  });

  it("does not report an unpinnable approved tool as removed, nor removals when asked not to", () => {
    const out = compareTools(approved, [{ name: "gone", inputSchema: 1 }, base, { ...base, name: "also" }]);
    expect(out).toEqual([
      {
        tool: "gone",
        kind: "unverifiable",
        severity: "high",
        sentences: ['tool "gone": cannot be checked: inputSchema: expected an object schema, got number 1'],
      },
    ]);
    expect(compareToolsDetailed(approved, [], { removed: false })).toEqual([]);
    expect(compareToolsDetailed(approved, []).map((c) => c.tool)).toEqual(["also", "gone", "t"]);
    expect(compareTools(approved, [base, { ...base, name: "gone" }, { ...base, name: "also" }])).toEqual([]);
  });

  it("reports a name listed three times with different definitions once", () => {
    const out = compareTools(new Map(), [base, { ...base, description: "x" }, { ...base, description: "y" }]);
    expect(out.map((c) => c.kind)).toEqual(["added", "unverifiable"]);
  });
});

describe("severity, escaping and reports", () => {
  it("takes the highest severity, low when there is none", () => {
    expect(maxSeverity([])).toBe("low");
    expect(maxSeverity([{ severity: "low" }, { severity: "medium" }, { severity: "low" }])).toBe("medium");
    expect(maxSeverity([{ severity: "high" }, { severity: "medium" }])).toBe("high");
  });

  it("escapes control, bidi and zero-width characters and doubles backslashes", () => {
    expect(escapeForTerminal("a\\b\n\t\r\u001b[2J\u007f\u009f\u202e\u200b\ufeff\u061c\u2066é")).toBe(
      "a\\\\b\\n\\t\\r\\x1b[2J\\x7f\\x9f\\u202e\\u200b\\ufeff\\u061c\\u2066é",
    );
    expect(escapeForTerminal("\u0000\u0001")).toBe("\\x00\\x01");
    expect(escapeForTerminal("plain ~!")).toBe("plain ~!");
    expect(escapeForTerminal("\u00a0\u2070")).toBe("\u00a0\u2070");
  });

  it("puts server findings first and words each line", () => {
    const changes = compareToolsDetailed(new Map([["t", pin(base)]]), [{ ...base, description: "e\u001b" }]);
    const lines = reportLines([{ text: "server changed", severity: "low" }], changes);
    expect(lines).toEqual([
      { text: "server changed", severity: "low" },
      { text: 'tool "t": description changed', severity: "high", was: "d", now: "e\u001b" },
    ]);
    expect(formatReport(lines)).toEqual([
      "  [low]    server changed",
      '  [high]   tool "t": description changed',
      '             was: "d"',
      '             now: "e\\x1b"',
    ]);
    expect(formatReport([{ text: "x", severity: "medium", was: null, now: "y".repeat(2001) }])).toEqual([
      "  [medium] x",
      "             was: (none)",
      `             now: "${"y".repeat(2000)}… (1 more characters)"`,
    ]);
    expect(formatReport([{ text: "x", severity: "low", now: "y".repeat(2000) }])[1]).toBe(
      `             now: "${"y".repeat(2000)}"`,
    );
    const noSentence = [{ ...changes[0]!, sentences: [] }];
    expect(reportLines([], noSentence)[0]?.text).toBe('tool "t": description changed');
  });
});

describe("PinState messages", () => {
  it("words each refusal", () => {
    expect(new PinState(undefined).checkCall("x")).toEqual({
      ok: false,
      reason: "this server has no entry in the lock, so none of its tools is approved",
    });
    expect(new PinState(undefined).hasEntry).toBe(false);
    const s = new PinState(new Map([["t", pin(base)]]));
    expect(s.hasEntry).toBe(true);
    expect(s.hasListed).toBe(false);
    expect(s.checkCall("x")).toEqual({ ok: false, reason: 'tool "x" is not in the lock (never approved)' });
    s.observeList([
      { ...base, description: "e", title: 1 },
      { ...base, name: "n" },
    ]);
    expect(s.hasListed).toBe(true);
    expect(s.checkCall("x")).toEqual({
      ok: false,
      reason: 'tool "x" is not in the lock (never approved and not listed by the server)',
    });
    expect(s.checkCall("t")).toEqual({
      ok: false,
      reason:
        'tool "t" cannot be checked against the lock (cannot be checked: title: expected a string, got number 1)',
    });
    expect(s.checkCall("n")).toEqual({
      ok: false,
      reason: 'tool "n" is not in the lock (it appeared after approval)',
    });
  });

  it("keeps the first reason, follows pages, and ignores removals", () => {
    const s = new PinState(
      new Map([
        ["t", pin(base)],
        ["u", pin({ ...base, name: "u" })],
      ]),
    );
    expect(
      s.observeList([{ ...base, description: "x" }], { first: true, last: false }).map((c) => c.kind),
    ).toEqual(["changed"]);
    // Page two lists t again, differently: a duplicate across pages.
    const two = s.observeList([{ ...base, description: "y" }], { first: false, last: true });
    expect(two.map((c) => [c.tool, c.kind])).toEqual([
      ["t", "unverifiable"],
      ["u", "removed"],
    ]);
    expect(s.checkCall("t")).toMatchObject({
      reason: expect.stringContaining("changed since it was approved"),
    });
    expect(s.checkCall("u")).toEqual({ ok: true });
    // A fresh listing starts over: the same change is new again on a first page.
    expect(
      s
        .observeList([
          { ...base, description: "x" },
          { ...base, name: "u" },
        ])
        .map((c) => c.kind),
    ).toEqual(["changed"]);
    s.listChanged();
    expect(
      s
        .observeList(
          [
            { ...base, description: "x" },
            { ...base, name: "u" },
          ],
          { first: false, last: true },
        )
        .map((c) => c.kind),
    ).toEqual(["changed"]);
  });

  it("returns the plain shape from observeList", () => {
    const s = new PinState(new Map());
    expect(s.observeList([base])).toEqual([
      { tool: "t", kind: "added", severity: "high", sentences: ['new tool "t"'] },
    ]);
  });
});
