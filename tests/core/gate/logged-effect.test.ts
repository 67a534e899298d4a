// The bound on an effect's texts in a decision record, in process (the relay tests that write
// records cover one long text; these the edges and several at once).
import { describe, expect, it } from "vitest";
import { LOGGED_EFFECT_CHARS, loggedEffect } from "../../../src/core/gate/logged-effect.js";
import type { Effect } from "../../../src/core/types.js";

const effect = (at: string, spelled: string, canonical?: string): Effect => ({
  operation: "read",
  kind: "path",
  at,
  spelled,
  ...(canonical === undefined ? {} : { canonical }),
});

describe("loggedEffect", () => {
  it("keeps a text of exactly the bound whole, and says nothing was cut", () => {
    const text = "x".repeat(LOGGED_EFFECT_CHARS);
    const e = effect(text, text, text);
    expect(loggedEffect(e)).toEqual(e);
    expect(loggedEffect(e)).not.toHaveProperty("cut");
  });

  it("cuts every long text, gives each one's full length, and keeps the other members", () => {
    const long = "y".repeat(LOGGED_EFFECT_CHARS + 1);
    const longer = "z".repeat(LOGGED_EFFECT_CHARS * 2);
    const e = effect(long, "short", longer);
    const logged = loggedEffect(e);
    expect(logged).toEqual({
      operation: "read",
      kind: "path",
      at: long.slice(0, LOGGED_EFFECT_CHARS),
      spelled: "short",
      canonical: longer.slice(0, LOGGED_EFFECT_CHARS),
      cut: { at: long.length, canonical: longer.length },
    });
    // What was judged is unchanged: only the record is shorter.
    expect(e.at).toBe(long);
    expect(e.canonical).toBe(longer);
  });
});
