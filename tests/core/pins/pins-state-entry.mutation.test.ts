// Pins at their edges: listings in pages, the refusal sentences of checkCall, entries whose
// prompts or templates appear or vanish, and the lock file's order and hash checks.
import { describe, expect, it } from "vitest";
import { diffTool } from "../../../src/core/pins/compare.js";
import { buildEntry, diffEntry, type LiveServer } from "../../../src/core/pins/entry.js";
import { formatLockPath, hashProblems, serializeLock, type LockEntry } from "../../../src/core/pins/lock.js";
import { pinTool, type ToolPin } from "../../../src/core/pins/pin.js";
import { formatReport } from "../../../src/core/pins/report.js";
import { PinState } from "../../../src/core/pins/state.js";

const tool = (name: string, description = "d", extra: object = {}) => ({
  name,
  description,
  inputSchema: { type: "object" },
  ...extra,
});
const pin = (t: unknown): ToolPin => {
  const r = pinTool(t);
  if (!r.ok) throw new Error(r.error);
  return r.pin;
};
const approvedOf = (...ts: unknown[]) => new Map(ts.map((t) => [pin(t).name, pin(t)]));

describe("PinState", () => {
  it("without a page, a listing is complete: a tool missing from the next one was removed", () => {
    const s = new PinState(approvedOf(tool("a"), tool("b")));
    expect(s.observeList([tool("a"), tool("b")])).toEqual([]);
    expect(s.observeList([tool("a")]).map((c) => `${c.kind} ${c.tool}`)).toEqual(["removed b"]);
    expect(s.observeListDetailed([tool("a"), tool("b")])).toEqual([]);
    expect(s.checkCall("a")).toEqual({ ok: true });
  });

  it("reports what each later page adds, even when an earlier page had findings", () => {
    const s = new PinState(approvedOf(tool("a"), tool("b")));
    expect(s.observeList([tool("a", "changed")], { first: true, last: false }).map((c) => c.tool)).toEqual([
      "a",
    ]);
    expect(
      s.observeList([tool("b", "changed too")], { first: false, last: true }).map((c) => c.tool),
    ).toEqual(["b"]);
  });

  it("a page that continues a listing it never saw the start of is still judged", () => {
    const s = new PinState(approvedOf(tool("a")));
    expect(s.observeList([tool("a")], { first: false, last: true })).toEqual([]);
    expect(s.hasListed).toBe(true);
  });

  it("words why a call is refused", () => {
    const s = new PinState(approvedOf(tool("a"), tool("b")));
    s.observeList([
      tool("a", "evil"),
      tool("b", "x", { inputSchema: { type: "object", properties: { p: 1n } } }),
      tool("c"),
    ]);
    expect(s.checkCall("a")).toEqual({
      ok: false,
      reason: 'tool "a" changed since it was approved (description changed)',
    });
    expect(s.checkCall("b")).toMatchObject({ ok: false });
    expect((s.checkCall("b") as { reason: string }).reason).toMatch(
      /^tool "b" cannot be checked against the lock \(/,
    );
    expect((s.checkCall("b") as { reason: string }).reason).not.toContain('tool "b": ');
    expect(s.checkCall("c")).toEqual({
      ok: false,
      reason: 'tool "c" is not in the lock (it appeared after approval)',
    });
    expect(s.checkCall("d")).toEqual({
      ok: false,
      reason: 'tool "d" is not in the lock (never approved and not listed by the server)',
    });
    expect(new PinState(approvedOf()).checkCall("d")).toEqual({
      ok: false,
      reason: 'tool "d" is not in the lock (never approved)',
    });
  });
});

describe("diffTool", () => {
  it("diffs a changed output schema keyword by keyword", () => {
    const a = pin(tool("t", "d", { outputSchema: { type: "object", required: ["x"] } }));
    const b = pin(tool("t", "d", { outputSchema: { type: "object" } }));
    expect(diffTool(a, b)).toEqual([
      { text: 'output schema changed: "x" no longer required', severity: "medium" },
    ]);
    expect(diffTool(a, a)).toEqual([]);
  });
});

const live = (over: Partial<LiveServer> = {}): LiveServer => ({
  argv: ["node", "s.js"],
  envNames: [],
  tools: [tool("t")],
  ...over,
});
const entryOf = (l: LiveServer): LockEntry => {
  const r = buildEntry(l);
  if (!r.ok) throw new Error(r.problems.join("; "));
  return r.entry;
};

describe("entries", () => {
  it("pins a single prompt and template", () => {
    const e = entryOf(
      live({ prompts: [{ name: "p", description: "x" }], resourceTemplates: [{ name: "r" }] }),
    );
    expect(Object.keys(e.prompts ?? {})).toEqual(["p"]);
    expect(Object.keys(e.resourceTemplates ?? {})).toEqual(["r"]);
    expect(e.prompts?.["p"]).toMatchObject({ description: "x" });
    expect(Object.keys(e.prompts?.["p"] ?? {}).sort()).toEqual(["description", "hash"]);
  });

  it("a server without argv compares as the empty command", () => {
    const e = entryOf(live({ argv: [] }));
    expect(diffEntry(e, live({ argv: [] })).server).toEqual([]);
  });

  it("lists environment names added and removed in name order", () => {
    const e = entryOf(live({ envNames: ["M", "B"] }));
    expect(diffEntry(e, live({ envNames: ["Z", "A", "M"] })).server).toEqual([
      { text: "environment variable names added: A, Z", severity: "medium" },
      { text: "environment variable names removed: B", severity: "low" },
    ]);
    const f = entryOf(live({ envNames: ["Y", "X"] }));
    expect(diffEntry(f, live()).server).toEqual([
      { text: "environment variable names removed: X, Y", severity: "low" },
    ]);
  });

  it("names every approved prompt the server no longer lists, in name order", () => {
    const e = entryOf(live({ prompts: [{ name: "b" }, { name: "a" }] }));
    expect(diffEntry(e, live()).server).toEqual([
      { text: 'prompt "a" removed', severity: "low" },
      { text: 'prompt "b" removed', severity: "low" },
    ]);
    expect(diffEntry(entryOf(live()), live({ prompts: [] })).server).toEqual([]);
  });
});

describe("lock file", () => {
  it("finds no hash problem in an entry without instructions", () => {
    const e = entryOf(live());
    expect(hashProblems({ version: 1, servers: { s: e } })).toEqual([]);
  });

  it("formats paths: names after servers, tools, prompts and templates, even a first part named so", () => {
    expect(formatLockPath(["tools", "servers"])).toBe('tools["servers"]');
    expect(formatLockPath(["servers", "a b", "prompts", "p", 0])).toBe('servers["a b"].prompts["p"][0]');
  });

  it("writes servers and tools in code-unit order, instructions only when present", () => {
    const e = entryOf(live({ tools: [tool("b"), tool("a"), tool("C")] }));
    const text = serializeLock({ version: 1, servers: { z: e, m: e, A: e } });
    const parsed = JSON.parse(text) as { servers: Record<string, LockEntry> };
    expect(Object.keys(parsed.servers)).toEqual(["A", "m", "z"]);
    expect(Object.keys(parsed.servers["m"]?.tools ?? {})).toEqual(["C", "a", "b"]);
    expect(text).not.toContain("instructions");
    const withText = serializeLock({ version: 1, servers: { s: entryOf(live({ instructions: "hi" })) } });
    expect(Object.keys((JSON.parse(withText) as { servers: { s: object } }).servers.s)).toEqual([
      "command",
      "args",
      "env",
      "instructions",
      "instructionsHash",
      "tools",
    ]);
  });
});

describe("report", () => {
  it("shows a missing old or new text as (none)", () => {
    expect(formatReport([{ text: "x", severity: "high", was: null, now: "n" }])).toEqual([
      "  [high]   x",
      "             was: (none)",
      '             now: "n"',
    ]);
  });
});
