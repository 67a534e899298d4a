// The look-alike table folds a letter to the one Latin letter it renders as: never to nothing,
// which would make a folded word lose a letter instead of reading as its Latin twin.
import { describe, expect, it } from "vitest";
import { CONFUSABLES } from "../../../src/core/text/confusables.js";

describe("CONFUSABLES", () => {
  it("maps single Cyrillic and Greek letters to single lower-case Latin letters", () => {
    const entries = Object.entries(CONFUSABLES);
    expect(entries.length).toBeGreaterThan(0);
    for (const [from, to] of entries) {
      expect(from, `expected one Cyrillic or Greek letter, got ${JSON.stringify(from)}`).toMatch(
        /^[\p{Script=Cyrillic}\p{Script=Greek}]$/u,
      );
      expect(to, `expected ${from} to map to one Latin letter, got ${JSON.stringify(to)}`).toMatch(/^[a-z]$/);
    }
  });
});
