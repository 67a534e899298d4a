// eval reads which frames effectgate wrote from the log itself when the header says `marksOwn`
// (decision 0112): a frame with `by` reaches no judge, one without it is the server's. Logs of
// earlier versions keep the legacy reading, from the refusal and ask records around the frame.
import { describe, expect, it } from "vitest";
import { answer, benign, call, flags, INJECTION, init, logOf, type Item } from "../../helpers/hand-logs.js";

const MARKS = { marksOwn: true } as const;
const errorAnswer = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32603, message: `effectgate could not handle this frame: ${INJECTION}` },
});
const question = (id: string) => ({
  jsonrpc: "2.0",
  id,
  method: "elicitation/create",
  params: { mode: "form", message: `effectgate: allow "x"? ${INJECTION}` },
});
const next: Item = { c2s: call(2, "run_command", { command: "ls" }) };

describe("eval on a log that marks effectgate's frames", () => {
  it("an error answer effectgate wrote, with no refusal record, reaches no judge", () => {
    const items = (by?: "effectgate"): Item[] => [
      { c2s: init() },
      { c2s: call(1, "read_note") },
      { ev: "handling-error", data: { ids: [1], error: "boom" } },
      { s2c: errorAnswer(1), ...(by ? { by } : {}) },
      next,
    ];
    expect(flags(benign(logOf("marked", "enforce", items("effectgate"), MARKS)))).toEqual([
      "confirm run_command",
    ]);
    // Legacy: nothing before the answer says it is effectgate's, so it reads as the server's.
    expect(flags(benign(logOf("legacy", "enforce", items())))).toEqual(["deny run_command tainted"]);
  });

  it("a question effectgate asked is not the server's, though its ask record is missing", () => {
    const items = (by?: "effectgate"): Item[] => [
      { c2s: init(true) },
      { s2c: question("effectgate-ask-00-1-00"), ...(by ? { by } : {}) },
      next,
    ];
    expect(flags(benign(logOf("marked", "strict", items("effectgate"), MARKS)))).toEqual([
      "confirm run_command",
    ]);
    expect(flags(benign(logOf("legacy", "strict", items())))).toEqual(["deny run_command tainted"]);
  });

  it("an unmarked request under the id of effectgate's question is the server's", () => {
    const id = "effectgate-ask-00-1-00";
    const items: Item[] = [
      { c2s: init(true) },
      { ev: "ask", data: { id, message: "effectgate: allow?", timeoutMs: 1 } },
      { s2c: question(id) },
      next,
    ];
    expect(flags(benign(logOf("marked", "strict", items, MARKS)))).toEqual(["deny run_command tainted"]);
    // Legacy: the ask record is all there is to go by, and it names this id.
    expect(flags(benign(logOf("legacy", "strict", items)))).toEqual(["confirm run_command"]);
  });

  it("a refusal's marked answer closes the call: the server's answer after it answers no request", () => {
    const items: Item[] = [
      { c2s: init() },
      { c2s: call(1, "write_file", { path: "~/.bashrc", content: "x" }) },
      {
        ev: "refused",
        data: { batch: false, calls: [{ method: "tools/call", id: 1, problem: null, text: "no" }] },
      },
      { s2c: answer(1, "refused by effectgate", true), by: "effectgate" },
      { s2c: answer(1, INJECTION) },
      next,
    ];
    const r = benign(logOf("marked", "enforce", items, MARKS));
    expect(r.answers.noRequest).toBe(1);
    expect(flags(r)).toEqual(["deny write_file", "deny run_command tainted"]);
  });

  it("the legacy path still takes the answer after a refusal record as effectgate's", () => {
    const items: Item[] = [
      { c2s: init() },
      { c2s: call(1, "write_file", { path: "~/.bashrc", content: "x" }) },
      {
        ev: "refused",
        data: { batch: false, calls: [{ method: "tools/call", id: 1, problem: null, text: "no" }] },
      },
      { s2c: answer(1, INJECTION, true) },
      next,
    ];
    const r = benign(logOf("legacy", "enforce", items));
    expect(r.answers.noRequest).toBe(0);
    expect(flags(r)).toEqual(["deny write_file", "confirm run_command"]);
  });
});
