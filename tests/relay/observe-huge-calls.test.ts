// Black-box (built CLI), defects 4 and 5 of the observe hunt: a call over 16 MiB is read at
// observe as a cut text (docs/decisions/0052, 0053), and observe's decision records must still
// say what enforce, which reads the whole line, does with it (docs/decisions/0066).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, isRefusal, type Msg } from "../adversarial/gate-client.js";
import { decisionOf, LEVELS, MiB, start } from "./observe-vs-enforce.js";

describe("a call over 16 MiB", () => {
  it("that is not JSON past the cut is recorded unjudgeable at observe, as enforce refuses it", async () => {
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      // A trailing comma deep in a 18 MiB array (JSON5 reads it), and the method after it.
      c.write(
        `{"jsonrpc":"2.0","id":5,"params":{"name":"write_file","arguments":{"path":"${join(b.project, ".env")}","content":"x","x":[${"1,".repeat(9 * MiB)}]}},"method":"tools/call"}\n`,
      );
      if (level === "enforce") expect(isRefusal(await c.answer(5))).toBe(true);
      c.send({ jsonrpc: "2.0", id: 6, method: "ping" });
      await c.answer(6);
      expect(await c.close()).toBe(0);
      expect(decisionOf(b, 5)).toMatchObject({ verdict: "deny", rule: "unjudgeable" });
    }
  }, 120_000);
});

describe("a call over 16 MiB with a long content", () => {
  it("is judged by its path at observe, as at enforce", async () => {
    const byLevel = {} as Record<(typeof LEVELS)[number], Array<Msg | undefined>>;
    for (const level of LEVELS) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      const content = "a".repeat(17 * MiB);
      // The path after the content: kept whole however much text came before it.
      c.call(1, "write_file", { content, path: join(b.home, ".ssh", "authorized_keys") });
      await c.answer(1);
      c.call(2, "write_file", { path: join(b.project, "ok.txt"), content });
      await c.answer(2);
      expect(await c.close()).toBe(0);
      byLevel[level] = [decisionOf(b, 1), decisionOf(b, 2)];
    }
    expect(byLevel.observe[0]).toMatchObject({
      verdict: "deny",
      rule: expect.stringMatching(/^paths\.deny /),
    });
    expect(byLevel.observe).toEqual(byLevel.enforce);
    // Allowed, and recorded with the path it writes (decision 0094), at both levels.
    expect(byLevel.observe[1]).toMatchObject({ verdict: "allow", tool: "write_file" });
  }, 120_000);
});
