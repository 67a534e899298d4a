import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, isRefusal, type Msg } from "./gate-client.js";
import { READINGS } from "./reading-cases.js";
import { expectBlocked, runAttack, tc } from "./run-case.js";

// Spellings a server reads literally where effectgate would trim, expand or decode them
// (decision 0061): refused at enforce, nothing reaches the server or the disk.

describe("literal readings of a path at enforce: refused", () => {
  for (const a of READINGS) {
    it(`${a.name}: ${a.tries}`, { timeout: 30_000 }, async () => {
      await expectBlocked(a);
    });
  }

  it("an untrimmed harmless path still reaches the literal server", { timeout: 30_000 }, async () => {
    const b = box({ LITERAL: "1" });
    const { answer } = await runAttack(
      {
        name: "harmless",
        tries: 'write_file {path: " project/notes.txt"}',
        env: { LITERAL: "1" },
        cwd: () => b.home,
        frame: () => tc(1, "write_file", { path: " project/notes.txt", content: "x" }),
        answerId: 1,
      },
      b,
    );
    expect(isRefusal(answer as Msg)).toBe(false);
    expect(existsSync(join(b.home, " project", "notes.txt"))).toBe(true);
  });
});
