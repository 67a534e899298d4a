// eval rebuilds a rug-pull's taint from the relay's record (issue 17): the lock it was found
// against is not in the log, and a tool list reaches the session at every level. Other taint
// records are not taken on trust: eval reads the answers again.
import { describe, expect, it } from "vitest";
import { benign, call, flags, init, logOf } from "../../helpers/hand-logs.js";

const list = { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "read_note", inputSchema: {} }] } };

describe("a rug-pull in an eval rebuild", () => {
  it("taints the commands after it", () => {
    const log = logOf("rug", "enforce", [
      { c2s: init() },
      { c2s: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
      { s2c: list },
      { ev: "taint", data: { id: 1, by: "read_note", reason: "rug-pull", why: 'tool "read_note" changed' } },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["deny run_command tainted"]);
  });

  it("does not take another reason's record on trust", () => {
    const log = logOf("said", "enforce", [
      { c2s: init() },
      { ev: "taint", data: { id: 1, by: "read_note", reason: "content", why: "said so" } },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["confirm run_command"]);
  });
});
