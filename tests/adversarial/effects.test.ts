import { describe, it } from "vitest";
import { EFFECTS } from "./effect-cases.js";
import { expectBlocked } from "./run-case.js";

// Effects the extractor must find (line breaks in paths, destinations, local delete_file) and
// unreadable frames a Python server still runs: refused at enforce, nothing reaches the server.

describe("missed effects and unreadable frames at enforce: refused", () => {
  for (const a of EFFECTS) {
    it(`${a.name}: ${a.tries}`, { timeout: 30_000 }, async () => {
      await expectBlocked(a);
    });
  }
});
