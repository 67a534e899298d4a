// Mutants of the strict parser and the key suggester that the first pass left alive.
import { describe, expect, it } from "vitest";
import { nearKey } from "../../../src/core/policy/near-key.js";
import { parseStrictJson } from "../../../src/core/json/strict-json.js";
import { problemsOf } from "../../helpers/policy.js";

describe("parseStrictJson, leftovers", () => {
  it("accepts a bare string and a list repeating one string", () => {
    expect(parseStrictJson('"x"')).toEqual({ ok: true, value: "x" });
    expect(parseStrictJson('["a","a","a"]')).toEqual({ ok: true, value: ["a", "a", "a"] });
  });
});

describe("nearKey ties", () => {
  it("keeps the first of equally near keys", () => {
    expect(nearKey("ab", ["ax", "ay"])).toBe("ax");
  });
});

describe("unknown-key hints", () => {
  it("points only to other named sections, never to the top level", () => {
    expect(problemsOf("version: 1\npaths:\n  exec: []\n")).toEqual([
      "team.yaml:3: paths.exec: expected one of deny, deny_if_tainted, confirm, confirm_if_tainted, deny_read, got an unknown key",
    ]);
  });
});
