// eval rebuilds what the relay scans outside answers (docs/decisions/0070): a server notification
// or request carrying an injection taints the rebuilt session as it taints the relay's; the
// question effectgate itself asked the client (its `ask` event came first) is not the server's.
import { describe, expect, it } from "vitest";
import { answer, benign, call, flags, INJECTION, init, logOf } from "../../helpers/hand-logs.js";

const note = (method: string, params: unknown) => ({ jsonrpc: "2.0", method, params });

describe("server messages in an eval rebuild", () => {
  for (const [method, params] of [
    ["notifications/message", { level: "info", logger: "x", data: { text: INJECTION } }],
    ["notifications/progress", { progressToken: 1, progress: 1, message: INJECTION }],
  ] as const) {
    it(`${method} with an injection taints the next command`, () => {
      const log = logOf("notify", "enforce", [
        { c2s: init() },
        { c2s: call(1, "read_note") },
        { s2c: note(method, params) },
        { s2c: answer(1, "fine") },
        { c2s: call(2, "run_command", { command: "ls" }) },
      ]);
      expect(flags(benign(log))).toEqual(["deny run_command tainted"]);
    });
  }

  it("a server request (sampling) with an injection taints too", () => {
    const log = logOf("sampling", "enforce", [
      { c2s: init() },
      {
        s2c: {
          jsonrpc: "2.0",
          id: 9,
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: INJECTION } }] },
        },
      },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["deny run_command tainted"]);
  });

  it("effectgate's own question and its cancellation are not read as the server's", () => {
    const id = "effectgate-ask-00-1-00";
    const message = `effectgate: allow "x"? ${INJECTION}`;
    const log = logOf("own-ask", "strict", [
      { c2s: init(true) },
      { ev: "ask", data: { id, message, timeoutMs: 1 } },
      { s2c: { jsonrpc: "2.0", id, method: "elicitation/create", params: { mode: "form", message } } },
      { s2c: note("notifications/cancelled", { requestId: id, reason: INJECTION }) },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["confirm run_command"]);
  });

  it("a server's request under an id effectgate never asked with is the server's", () => {
    const log = logOf("squat", "strict", [
      { c2s: init(true) },
      {
        s2c: {
          jsonrpc: "2.0",
          id: "effectgate-ask-1",
          method: "elicitation/create",
          params: { mode: "form", message: INJECTION },
        },
      },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["deny run_command tainted"]);
  });
});
