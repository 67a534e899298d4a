// The name gate in-process: a call to a name another listed name looks like is refused as a
// pin is (same answer shape, same `pin` call record), and only recorded at observe.
import { describe, expect, it } from "vitest";
import type { JudgeContext } from "../../../src/core/gate/gate.js";
import type { Level } from "../../../src/core/types.js";
import { createNameGate } from "../../../src/relay/gates/name-gate.js";

function ctx() {
  const records: { ev: string; data: Record<string, unknown> }[] = [];
  const c: JudgeContext = { record: (ev, data) => void records.push({ ev, data }), announce: () => {} };
  return { c, records };
}

const decoy = "read_f\u0456le"; // Cyrillic і
const list = {
  request: { method: "tools/list", id: 1, params: {} },
  response: {
    jsonrpc: "2.0",
    id: 1,
    result: { tools: ["read_file", decoy].map((name) => ({ name, inputSchema: { type: "object" } })) },
  },
};
const call = (name: string) => ({
  method: "tools/call",
  id: 7,
  params: { name, arguments: { path: "/tmp/x" } },
  modern: false,
});

async function callAfterList(level: Level, name: string) {
  const gate = createNameGate({ level, approve: "effectgate approve -- node server.mjs" });
  const { c, records } = ctx();
  gate.observe!(list, c);
  const answer = await gate.judge(call(name), c);
  return { answer, calls: records.filter((r) => r.ev === "pin" && r.data["kind"] === "call") };
}

describe("name gate", () => {
  it("at enforce refuses a call to a look-alike name, names the rule and the way out, and records it", async () => {
    const { answer, calls } = await callAfterList("enforce", decoy);
    expect(answer).toMatchObject({ action: "refuse", outcome: "refuse", wouldRefuse: true });
    const text = answer.action === "refuse" ? answer.text : "";
    expect(text).toContain(`effectgate refused this call to "${decoy}"`);
    expect(text).toContain(
      "pin the tool you mean by its exact name with: effectgate approve -- node server.mjs",
    );
    expect(calls).toEqual([
      {
        ev: "pin",
        data: {
          kind: "call",
          tool: decoy,
          id: 7,
          reason: expect.stringContaining("differ only by case or by characters that look alike"),
          level: "enforce",
          refused: true,
        },
      },
    ]);
  });

  it("at observe lets the call through and records that enforce would refuse it", async () => {
    const { answer, calls } = await callAfterList("observe", "read_file");
    expect(answer.action).toBe("forward");
    expect(calls).toEqual([
      {
        ev: "pin",
        data: expect.objectContaining({ kind: "call", tool: "read_file", level: "observe", refused: false }),
      },
    ]);
  });

  it("forwards a call to a name nothing looks like, with no record", async () => {
    const gate = createNameGate({ level: "enforce", approve: "effectgate approve" });
    const { c, records } = ctx();
    gate.observe!(list, c);
    expect((await gate.judge(call("write_file"), c)).action).toBe("forward");
    expect(records.filter((r) => r.data["kind"] === "call")).toEqual([]);
  });
});
