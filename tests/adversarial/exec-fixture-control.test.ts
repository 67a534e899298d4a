import { describe, expect, it } from "vitest";
import { EXEC } from "./exec-cases.js";
import { box } from "./gate-client.js";
import { runAttack } from "./run-case.js";

// The control group for exec.test.ts: the same calls with every check off (EFFECTGATE_OFF=1).
// Each must reach the server, or "nothing reached the server" at enforce would prove nothing.

describe("with the checks off, every exec case reaches the server", () => {
  for (const a of EXEC) {
    it(`${a.name} reaches the server`, { timeout: 30_000 }, async () => {
      const { b } = await runAttack({ ...a, answerId: undefined }, box({ EFFECTGATE_OFF: "1" }));
      expect(a.breached(b)).toBe(true);
    });
  }
});
