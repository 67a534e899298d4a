import { describe, expect, it } from "vitest";
import { BLIND } from "./blind-file-cases.js";
import { box } from "./gate-client.js";
import { expectBlocked, runAttack } from "./run-case.js";

// Issue 17's file-side classes at enforce: refused, nothing but the canary reaches the server,
// the disk keeps its bytes and no secret comes back. The control group runs each case with the
// checks off and sees the breach happen, so the enforce half proves something.

describe("issue 17 file classes at enforce: refused", () => {
  for (const a of BLIND) {
    it(`${a.class} ${a.name}: ${a.tries}`, { timeout: 30_000 }, async () => {
      await expectBlocked(a);
    });
  }
});

describe("issue 17 file classes with the checks off: each is a real breach", () => {
  for (const a of BLIND) {
    it(`${a.class} ${a.name}`, { timeout: 30_000 }, async () => {
      const { b } = await runAttack({ ...a, answerId: undefined }, box({ ...a.env, EFFECTGATE_OFF: "1" }));
      expect(a.breached(b)).toBe(true);
    });
  }
});
