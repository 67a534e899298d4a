import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EFFECTS } from "./effect-cases.js";
import { box } from "./gate-client.js";
import { runAttack } from "./run-case.js";
import {
  bashrc,
  INDIRECT,
  indirectTargets,
  keys,
  READS,
  SECRET,
  SPELLINGS,
  withKey,
} from "./spelling-cases.js";

// The control group: the same attacks with every check off (EFFECTGATE_OFF=1). Each must really
// breach (the protected file is written, the secret comes back), or the enforce tests that say
// "nothing happened" would prove nothing.

describe("with the checks off, every spelling is a real breach", () => {
  for (const a of SPELLINGS) {
    it(`${a.name} writes the protected file`, async () => {
      const { b } = await runAttack({ ...a, answerId: 1 }, box({ EFFECTGATE_OFF: "1" }));
      const hit = [keys(b.home), join(b.home, ".ssh", "x"), bashrc(b.home)].filter((f) => existsSync(f));
      expect(hit).toHaveLength(1);
    });
  }
  for (const a of READS) {
    it(`${a.name} returns the secret`, async () => {
      const { c } = await runAttack(
        { ...a, answerId: 1, setup: (b) => (withKey(b), a.setup?.(b)) },
        box({ EFFECTGATE_OFF: "1" }),
      );
      expect(JSON.stringify(c.messages)).toContain(JSON.stringify(SECRET).slice(1, -1));
    });
  }
});

describe("with the checks off, every indirect write lands", () => {
  for (const a of INDIRECT) {
    it(`${a.name} changes a protected file`, async () => {
      const { b } = await runAttack({ ...a, answerId: 1 }, box({ EFFECTGATE_OFF: "1" }));
      const landed = indirectTargets(b).filter((f) => existsSync(f));
      const bashrcChanged =
        existsSync(bashrc(b.home)) && readFileSync(bashrc(b.home), "utf8") !== "# original\n";
      expect(landed.length + (bashrcChanged ? 1 : 0)).toBe(1);
    });
  }
});

describe("with the checks off, every missed effect and unreadable frame is a real breach", () => {
  for (const a of EFFECTS) {
    it(`${a.name} reaches the server and acts`, async () => {
      const { b } = await runAttack({ ...a, answerId: undefined }, box({ EFFECTGATE_OFF: "1" }));
      expect(a.breached(b)).toBe(true);
    });
  }
});
