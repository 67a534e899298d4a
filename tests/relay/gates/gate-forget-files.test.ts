import { describe, expect, it } from "vitest";
import type { HeldRequest, JudgeContext } from "../../../src/core/gate/gate.js";
import { createPolicyGate } from "../../../src/relay/gates/policy-gate.js";
import { call, judgeOf } from "../../helpers/judge.js";

// The policy gate tells the path resolver to forget its cached answers when a call that may
// change the file system goes on, and again when that call is answered (docs/decisions/0012).

const ctx: JudgeContext = { record: () => {}, announce: () => {} };
const held = (id: number | string, name: string, args: Record<string, unknown>): HeldRequest => ({
  method: "tools/call",
  id,
  params: call(name, args),
  modern: false,
});
const answer = (id: number | string) => ({
  request: { method: "tools/call", id, params: {} },
  response: { jsonrpc: "2.0", id, result: { content: [] } },
});

describe("forgetting cached file answers", () => {
  it("happens when a write or a command goes on and when it is answered, not for reads or refusals", async () => {
    let forgotten = 0;
    const gate = createPolicyGate({
      judge: judgeOf(),
      level: "enforce",
      policySource: "default",
      forgetFiles: () => (forgotten += 1),
    });
    await gate.judge(held(1, "read_text_file", { path: "notes.md" }), ctx);
    gate.observe?.(answer(1), ctx);
    expect(forgotten).toBe(0);
    await gate.judge(held(2, "move_file", { source: "a", destination: "b" }), ctx);
    expect(forgotten).toBe(1);
    gate.observe?.(answer("2"), ctx); // another id: 2 and "2" are different requests
    expect(forgotten).toBe(1);
    gate.observe?.(answer(2), ctx);
    expect(forgotten).toBe(2);
    gate.observe?.(answer(2), ctx); // answered once
    expect(forgotten).toBe(2);
    await gate.judge(held(3, "bash", { command: "ls" }), ctx);
    expect(forgotten).toBe(3);
    await gate.judge(held(4, "write_file", { path: "~/.ssh/authorized_keys" }), ctx); // refused
    gate.observe?.(answer(4), ctx);
    expect(forgotten).toBe(3);
  });
});
