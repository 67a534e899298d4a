// Issue 17: a tool's `_meta` is pinned. A change to it is a change of the tool; a lock keeps it,
// and a lock written before `_meta` was pinned still matches a tool that has none.
import { describe, expect, it } from "vitest";
import { compareTools, diffTool } from "../../../src/core/pins/compare.js";
import {
  approvedTools,
  hashProblems,
  LockFile,
  lockToolFromPin,
  pinFromLockTool,
} from "../../../src/core/pins/lock.js";
import { pinTool, type ToolPin } from "../../../src/core/pins/pin.js";

const schema = { type: "object" };
const pin = (tool: unknown): ToolPin => {
  const r = pinTool(tool);
  if (!r.ok) throw new Error(r.error);
  return r.pin;
};

describe("a tool's _meta", () => {
  const was = pin({ name: "t", inputSchema: schema, _meta: { "ui/resourceUri": "ui://a", keep: 1 } });

  it("changed, added or removed is a change, named key by key", () => {
    const now = pin({
      name: "t",
      inputSchema: schema,
      _meta: { "ui/resourceUri": "ui://evil", added: true },
    });
    expect(diffTool(was, now)).toEqual([
      { text: "_meta added changed from null to true", severity: "medium" },
      { text: "_meta keep changed from 1 to null", severity: "medium" },
      { text: '_meta ui/resourceUri changed from "ui://a" to "ui://evil"', severity: "medium" },
    ]);
    const none = pin({ name: "t", inputSchema: schema });
    expect(diffTool(none, was).map((f) => f.text)).toEqual([
      "_meta keep changed from null to 1",
      '_meta ui/resourceUri changed from null to "ui://a"',
    ]);
    expect(
      compareTools(new Map([["t", none]]), [{ name: "t", inputSchema: schema, _meta: { x: 1 } }]),
    ).toEqual([
      {
        tool: "t",
        kind: "changed",
        severity: "medium",
        sentences: ['tool "t": _meta x changed from null to 1'],
      },
    ]);
  });

  it("is kept by the lock, and a lock entry without it matches a tool without it", () => {
    const stored = lockToolFromPin(was);
    expect(stored._meta).toEqual({ keep: 1, "ui/resourceUri": "ui://a" });
    const back = pinFromLockTool("t", stored);
    expect(back.ok && back.pin.hash).toBe(was.hash);
    const plain = lockToolFromPin(pin({ name: "u", inputSchema: schema }));
    expect("_meta" in plain).toBe(false);
    const lock = LockFile.parse({
      version: 1,
      servers: { s: { command: "x", args: [], env: [], tools: { t: stored, u: plain } } },
    });
    expect(hashProblems(lock)).toEqual([]);
    expect(approvedTools(lock.servers["s"]!).get("t")?.meta).toEqual(was.meta);
  });
});
