// The hash a grant is bound to: the same effect whatever the order or repetition the judge found
// it in; any other server, tool, method, path or command is another effect.
import { describe, expect, it } from "vitest";
import { effectEntries, effectKey, type AskSubject } from "../../../src/core/gate/effect-key.js";
import type { Effect } from "../../../src/core/types.js";

const w = (p: string, spelled = p): Effect => ({
  operation: "write",
  kind: "path",
  at: "arguments.path",
  spelled,
  canonical: p,
});
const run = (c: string): Effect => ({
  operation: "exec",
  kind: "command",
  at: "arguments.command",
  spelled: c,
});
const base: AskSubject = {
  server: "fs",
  method: "tools/call",
  tool: "write_file",
  effects: [w("/p/a"), run("git push")],
};

describe("effectKey", () => {
  it("is the same for the same effects in another order, spelled otherwise, or repeated", () => {
    const k = effectKey(base);
    expect(effectKey({ ...base, effects: [run("git push"), w("/p/a", "./a"), w("/p/a")] })).toBe(k);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each<[string, Partial<AskSubject>]>([
    ["another path", { effects: [w("/p/b"), run("git push")] }],
    ["one more path", { effects: [w("/p/a"), w("/p/b"), run("git push")] }],
    ["one fewer effect", { effects: [w("/p/a")] }],
    ["another command", { effects: [w("/p/a"), run("git push --force")] }],
    ["another tool", { tool: "edit_file" }],
    ["another server", { server: "fs2" }],
    ["another method", { method: "prompts/get" }],
  ])("differs for %s", (_, change) => {
    expect(effectKey({ ...base, ...change })).not.toBe(effectKey(base));
  });

  it("a read and a write of one path are two effects, listed as a user reads them", () => {
    const read: Effect = { ...w("/p/a"), operation: "read" };
    expect(effectEntries([w("/p/a"), read, run("ls")])).toEqual([
      { verb: "read", target: "/p/a" },
      { verb: "run", target: "ls" },
      { verb: "write", target: "/p/a" },
    ]);
    expect(effectKey({ ...base, effects: [read] })).not.toBe(effectKey({ ...base, effects: [w("/p/a")] }));
  });
});
