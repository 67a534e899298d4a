// Exact-value tests for lock entries: building one from a live server, diffing it, recomputing
// its hashes and writing it out in a stable order.
import { describe, expect, it } from "vitest";
import { canonicalHash } from "../../../src/core/json/jcs.js";
import { buildEntry, diffEntry, type LiveServer } from "../../../src/core/pins/entry.js";
import { identityFor } from "../../../src/core/pins/identity.js";
import {
  approvedTools,
  formatLockPath,
  hashProblems,
  serializeLock,
  type LockEntry,
  type LockFile,
} from "../../../src/core/pins/lock.js";

const obj = { type: "object" };
const live = (over: Partial<LiveServer> = {}): LiveServer => ({
  argv: ["node", "s.js"],
  envNames: ["B", "A", "B"],
  tools: [{ name: "t", description: "d", inputSchema: obj }],
  ...over,
});
function entryOf(l: LiveServer): LockEntry {
  const r = buildEntry(l);
  if (!r.ok) throw new Error(r.problems.join("; "));
  return r.entry;
}

describe("buildEntry", () => {
  it("records command, sorted unique env names, and only the parts that were listed", () => {
    const e = entryOf(live());
    expect(e.command).toBe("node");
    expect(e.args).toEqual(["s.js"]);
    expect(e.env).toEqual(["A", "B"]);
    expect("instructions" in e).toBe(false);
    expect("prompts" in e).toBe(false);
    expect("resourceTemplates" in e).toBe(false);
    expect(Object.keys(e.tools)).toEqual(["t"]);
    expect(entryOf(live({ argv: [] })).command).toBe("");
    const full = entryOf(
      live({
        instructions: "hi",
        prompts: [{ name: "p", description: "x", _meta: 1 }],
        resourceTemplates: [],
      }),
    );
    expect(full.instructions).toBe("hi");
    expect(full.instructionsHash).toBe(canonicalHash("hi"));
    expect(full.prompts).toEqual({
      p: { description: "x", hash: canonicalHash({ name: "p", description: "x" }) },
    });
    expect(full.resourceTemplates).toEqual({});
  });

  it("lists every item it cannot pin, and duplicates", () => {
    expect(
      buildEntry(
        live({
          tools: [{ name: "" }, { name: "t", inputSchema: obj }, { name: "t", inputSchema: obj }],
          prompts: [{ name: "p" }, { name: "p" }, 5],
          resourceTemplates: [{ name: "r", uriTemplate: [NaN] }],
        }),
      ),
    ).toEqual({
      ok: false,
      problems: [
        'tool "(unnamed)": name: expected a non-empty string, got ""',
        'tool "t": listed twice',
        'prompt "p": listed twice',
        'prompt "(unnamed)": expected an object, got number 5',
        'resource template "r": cannot be put in canonical form: expected a finite number, got NaN',
      ],
    });
  });
});

describe("diffEntry", () => {
  const approved = entryOf(
    live({ instructions: "i", prompts: [{ name: "p", description: "x" }, { name: "q" }, { name: "gone" }] }),
  );

  it("finds nothing when nothing changed", () => {
    expect(
      diffEntry(
        approved,
        live({
          instructions: "i",
          prompts: [{ name: "p", description: "x" }, { name: "q" }, { name: "gone" }],
        }),
      ),
    ).toEqual({ server: [], tools: [] });
  });

  it("words every server-level change with its severity", () => {
    const d = diffEntry(
      approved,
      live({
        argv: ["bun", "s.js", "--x"],
        envNames: ["A", "C"],
        instructions: "j",
        prompts: [
          { name: "p", description: "y" },
          { name: "q", title: "T" },
          { name: "new", description: "n" },
          {},
        ],
      }),
    );
    expect(d.server).toEqual([
      { text: 'command changed from "node" to "bun"', severity: "high" },
      { text: 'arguments changed from ["s.js"] to ["s.js", "--x"]', severity: "high" },
      { text: "environment variable names added: C", severity: "medium" },
      { text: "environment variable names removed: B", severity: "low" },
      { text: "server instructions changed", severity: "high", was: "i", now: "j" },
      { text: 'prompt "p": description changed', severity: "high", was: "x", now: "y" },
      { text: 'prompt "q" changed', severity: "medium" },
      { text: 'new prompt "new"', severity: "medium", now: "n" },
      {
        text: 'prompt "(unnamed)" cannot be checked: name: expected a non-empty string, got undefined undefined',
        severity: "high",
      },
      { text: 'prompt "gone" removed', severity: "low" },
    ]);
    expect(d.tools).toEqual([]);
  });

  it("tells added and removed instructions and templates apart", () => {
    const bare = entryOf(live());
    expect(diffEntry(bare, live({ instructions: "n" })).server).toEqual([
      { text: "server instructions added", severity: "high", was: null, now: "n" },
    ]);
    expect(diffEntry(approved, live({ prompts: [] })).server[0]).toEqual({
      text: "server instructions removed",
      severity: "low",
      was: "i",
      now: null,
    });
    expect(diffEntry(bare, live({ resourceTemplates: [{ name: "r" }] })).server).toEqual([
      { text: 'new resource template "r"', severity: "medium", now: null },
    ]);
    expect(diffEntry(bare, live({ argv: ["node"] })).server).toEqual([
      { text: 'arguments changed from ["s.js"] to []', severity: "high" },
    ]);
    expect(diffEntry(bare, live({ tools: [] })).tools.map((c) => c.kind)).toEqual(["removed"]);
  });
});

describe("lock helpers", () => {
  it("names servers by --name or by a quoted argv", () => {
    expect(identityFor("fs", ["x"])).toBe("fs");
    expect(identityFor("", ["node", "a b", "", "k=v,~/x@1%2+3:4"])).toBe('node "a b" "" k=v,~/x@1%2+3:4');
    expect(identityFor(undefined, ["it's"])).toBe('"it\'s"');
  });

  it("formats lock paths", () => {
    expect(formatLockPath(["servers", "fs", "tools", "read"])).toBe('servers["fs"].tools["read"]');
    expect(formatLockPath(["servers", "a", "prompts", "p"])).toBe('servers["a"].prompts["p"]');
    expect(formatLockPath(["servers", "a", "resourceTemplates", "r"])).toBe(
      'servers["a"].resourceTemplates["r"]',
    );
    expect(formatLockPath(["servers", "a", "args", 0])).toBe('servers["a"].args[0]');
    expect(formatLockPath(["tools", "x"])).toBe('tools["x"]');
    expect(formatLockPath(["a", "x"])).toBe("a.x");
    expect(formatLockPath(["x", "servers"])).toBe("x.servers");
    expect(formatLockPath([])).toBe("");
  });

  it("recomputes every stored hash and names the ones that differ", () => {
    const e = entryOf(
      live({ instructions: "i", prompts: [{ name: "p" }], resourceTemplates: [{ name: "r" }] }),
    );
    const lock: LockFile = { version: 1, servers: { s: e } };
    expect(hashProblems(lock)).toEqual([]);
    const bad: LockFile = {
      version: 1,
      servers: {
        s: {
          ...e,
          tools: { t: { ...e.tools.t!, description: "edited" } },
          prompts: { p: { hash: "0" } },
          resourceTemplates: { r: { hash: "1" } },
          instructions: "edited",
        },
        u: { ...e, instructions: undefined },
      },
    };
    const probs = hashProblems(bad);
    expect(probs.map((p) => [p.at, p.field, p.stored])).toEqual([
      [["servers", "s", "tools", "t"], "hash", e.tools.t!.hash],
      [["servers", "s", "prompts", "p"], "hash", "0"],
      [["servers", "s", "resourceTemplates", "r"], "hash", "1"],
      [["servers", "s"], "instructionsHash", e.instructionsHash],
      [["servers", "u"], "instructionsHash", e.instructionsHash],
    ]);
    expect(probs[1]?.recomputed).toBe(canonicalHash({ name: "p" }));
    expect(probs[4]?.recomputed).toBe("(no instructions)");
    const noHash: LockFile = { version: 1, servers: { s: { ...e, instructionsHash: undefined } } };
    expect(hashProblems(noHash)[0]).toMatchObject({ stored: "(none)", recomputed: canonicalHash("i") });
    const unpinnable: LockFile = {
      version: 1,
      servers: {
        s: {
          ...e,
          tools: { t: { ...e.tools.t!, inputSchema: [] as never } },
          prompts: { p: { hash: "x", title: NaN } },
        },
      },
    };
    expect(hashProblems(unpinnable).map((p) => p.recomputed)).toEqual([
      "(cannot be computed: inputSchema: expected an object schema, got a list)",
      "(cannot be computed: cannot be put in canonical form: expected a finite number, got NaN)",
    ]);
  });

  it("rebuilds approved tools with their stored hash", () => {
    const e = entryOf(
      live({
        tools: [{ name: "t", title: "T", inputSchema: obj, outputSchema: obj, annotations: { a: 1 } }],
      }),
    );
    const m = approvedTools({ ...e, tools: { ...e.tools, bad: { ...e.tools.t!, inputSchema: 1 as never } } });
    expect([...m.keys()]).toEqual(["t"]);
    expect(m.get("t")).toMatchObject({
      title: "T",
      outputSchema: obj,
      annotations: { a: 1 },
      hash: e.tools.t!.hash,
    });
    expect(e.tools.t).toEqual({
      description: null,
      title: "T",
      inputSchema: obj,
      outputSchema: obj,
      annotations: { a: 1 },
      hash: e.tools.t!.hash,
    });
    expect(Object.keys(entryOf(live()).tools.t!)).toEqual(["description", "inputSchema", "hash"]);
  });

  it("writes servers, items and env names sorted, with optional parts only when present", () => {
    const e = entryOf(
      live({
        tools: [
          { name: "b", inputSchema: obj },
          { name: "a", inputSchema: obj },
        ],
      }),
    );
    const withAll = {
      ...e,
      env: ["Z", "A"],
      instructions: "i",
      instructionsHash: "h",
      prompts: { y: { hash: "1" }, x: { hash: "2" } },
      resourceTemplates: { r2: { hash: "3" }, r1: { hash: "4" } },
    };
    const text = serializeLock({ version: 1, servers: { zz: e, aa: withAll } });
    const back = JSON.parse(text) as { servers: Record<string, Record<string, unknown>> };
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "version": 1');
    expect(Object.keys(back.servers)).toEqual(["aa", "zz"]);
    const aa = back.servers.aa!;
    expect(aa.env).toEqual(["A", "Z"]);
    expect(Object.keys(aa)).toEqual([
      "command",
      "args",
      "env",
      "instructions",
      "instructionsHash",
      "tools",
      "prompts",
      "resourceTemplates",
    ]);
    expect(Object.keys(aa.tools as object)).toEqual(["a", "b"]);
    expect(Object.keys(aa.prompts as object)).toEqual(["x", "y"]);
    expect(Object.keys(aa.resourceTemplates as object)).toEqual(["r1", "r2"]);
    expect(Object.keys(back.servers.zz!)).toEqual(["command", "args", "env", "tools"]);
    const same = serializeLock({ version: 1, servers: { b: e, a: e, c: e } });
    expect(Object.keys((JSON.parse(same) as { servers: object }).servers)).toEqual(["a", "b", "c"]);
  });
});
