import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Gate, GateAnswer } from "../../../src/core/gate/gate.js";
import { fixture, startRelay, tempDir } from "../helpers.js";

// A gate whose refusal throws when the relay reads its text, which the relay does after the
// judgement and before it answers: an exception while a client frame is handled, outside the
// gate's own judgement (which already fails closed as a refusal).
function explodingGate(): Gate {
  return {
    judge: async () =>
      ({
        action: "refuse",
        get text(): string {
          throw new Error("gate exploded");
        },
      }) as GateAnswer,
  };
}

const call = (id: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "read_file", arguments: {} } });

describe("an exception while a client frame is handled", () => {
  it("answers the frame's id with an error, logs it, and sends nothing of it on", async () => {
    const record = join(tempDir(), "received.jsonl");
    const h = startRelay(["node", fixture("echo.mjs"), record], { gate: explodingGate() });
    h.send(`${call(5)}\n`);
    const answer = JSON.parse(await h.next()) as Record<string, unknown>;
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 5, error: { code: -32603 } });
    expect(JSON.stringify(answer)).toContain("gate exploded");
    // A batch is answered as a batch, one error per request in it.
    h.send(`[${call("a")},${call("b")}]\n`);
    const batch = JSON.parse(await h.next()) as Array<Record<string, unknown>>;
    expect(batch.map((m) => [m["id"], (m["error"] as Record<string, unknown>)["code"]])).toEqual([
      ["a", -32603],
      ["b", -32603],
    ]);
    h.end();
    await h.result;
    expect(h.log.events("handling-error")).toEqual([
      { ids: [5], error: "gate exploded" },
      { ids: ["a", "b"], error: "gate exploded" },
    ]);
    expect(h.log.events("relay-error")).toHaveLength(2);
    expect(h.stderr()).toContain("internal error");
    // The server never saw the frames it was not safe to send.
    expect(existsSync(record) ? readFileSync(record, "utf8") : "").not.toContain("read_file");
  });
});
