import { describe, expect, it } from "vitest";
import { READINGS } from "./reading-cases.js";
import { box } from "./gate-client.js";
import { runAttack } from "./run-case.js";

// The control group for reading-cases.ts: the same calls with every check off
// (EFFECTGATE_OFF=1) against the literal server really change ~/.bashrc or ~/.ssh, or return
// the key; otherwise "refused at enforce" would prove nothing.

describe("with the checks off, every literal reading is a real breach", () => {
  for (const a of READINGS) {
    it(`${a.name} breaches`, { timeout: 30_000 }, async () => {
      const { b, c } = await runAttack(a, box({ ...a.env, EFFECTGATE_OFF: "1" }));
      expect(a.breached(b, c.messages)).toBe(true);
    });
  }
});
