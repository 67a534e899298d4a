// Black-box (built CLI), defect 3 of the observe hunt: a frame that parses but cannot be judged
// as one call (a raw CR between its tokens, which a server ending lines at CR reads as several
// messages) is refused at enforce under the id it carries, so the client's request is answered
// and the decision names the call; observe records the same (docs/decisions/0066).
import { describe, expect, it } from "vitest";
import { box, isRefusal, receivedWork } from "../adversarial/gate-client.js";
import { decisionOf, events, LEVELS, start } from "./observe-vs-enforce.js";

describe("a call with a raw CR between its tokens", () => {
  const call = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},\r"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/tmp/x"}}}\n`;

  it("is refused at enforce under its own id, and recorded so at both levels", async () => {
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      c.write(call(11));
      const answer = await c.answer(11);
      expect(isRefusal(answer)).toBe(level === "enforce");
      // At observe the log is written just after the bytes went on: read it once all is done.
      expect(await c.close()).toBe(0);
      expect(decisionOf(b, 11)).toEqual({
        verdict: "deny",
        rule: "unjudgeable",
        tainted: false,
        tool: "read_file",
      });
      if (level === "enforce") {
        expect(receivedWork(b.record)).toEqual([]);
        expect(events(b, "refused")).toEqual([
          expect.objectContaining({ calls: [expect.objectContaining({ id: 11 })] }),
        ]);
      }
    }
  }, 30_000);

  it("in a batch: every request in it is answered at enforce, none reaches the server", async () => {
    const b = box();
    const c = start(b, "enforce");
    await c.initialize();
    c.write(
      `[{"jsonrpc":"2.0","id":21,\r"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/tmp/x"}}},{"jsonrpc":"2.0","id":22,"method":"ping"}]\n`,
    );
    expect(isRefusal(await c.answer(21))).toBe(true);
    expect(isRefusal(await c.answer(22))).toBe(true);
    expect(await c.close()).toBe(0);
    expect(receivedWork(b.record)).toEqual([]);
    expect(decisionOf(b, 21)).toMatchObject({ rule: "unjudgeable", tool: "read_file" });
  }, 30_000);
});

describe("a call that is not JSON", () => {
  it("is recorded under the id its refusal answers, at both levels", async () => {
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      // A trailing comma: JSON5 and other lenient readers take it.
      c.write(
        `{"jsonrpc":"2.0","id":31,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/tmp/x",}}}\n`,
      );
      if (level === "enforce") expect(isRefusal(await c.answer(31))).toBe(true);
      c.send({ jsonrpc: "2.0", id: 32, method: "ping" });
      await c.answer(32);
      expect(await c.close()).toBe(0);
      expect(decisionOf(b, 31)).toMatchObject({ verdict: "deny", rule: "unjudgeable" });
    }
  }, 30_000);
});
