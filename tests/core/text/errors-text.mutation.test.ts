// The shared error types and their wording, the exit codes, the judged methods, and the
// escaping of unsafe characters for terminals.
import { describe, expect, it } from "vitest";
import {
  CannotStartError,
  ConfigError,
  describeValue,
  EXIT,
  formatProblem,
  UsageError,
} from "../../../src/core/errors.js";
import { JUDGED_METHODS } from "../../../src/core/wire/judged-methods.js";
import { outcomeFor, parseLevel } from "../../../src/core/gate/levels.js";
import { charEscape, UNSAFE_CHAR_CLASS } from "../../../src/core/text/terminal-text.js";

describe("errors", () => {
  it("keeps the documented exit codes", () => {
    expect(EXIT).toEqual({
      ok: 0,
      finding: 1,
      usage: 2,
      deny: 3,
      internal: 70,
      config: 78,
      cannotStart: 127,
    });
  });

  it("words a config problem with and without a line", () => {
    expect(
      formatProblem({ file: "p.yaml", line: 3, key: "paths.deny", expected: "a list", got: "a mapping" }),
    ).toBe("p.yaml:3: paths.deny: expected a list, got a mapping");
    expect(formatProblem({ file: "p.yaml", key: "version", expected: "1", got: "2" })).toBe(
      "p.yaml: version: expected 1, got 2",
    );
  });

  it("carries every problem, one line each", () => {
    const problems = [
      { file: "a", line: 1, key: "k", expected: "x", got: "y" },
      { file: "b", key: "j", expected: "u", got: "v" },
    ];
    const e = new ConfigError(problems);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("ConfigError");
    expect(e.message).toBe("a:1: k: expected x, got y\nb: j: expected u, got v");
    expect(e.problems).toEqual(problems);
    const u = new UsageError("bad word");
    expect([u.name, u.message]).toEqual(["UsageError", "bad word"]);
    const c = new CannotStartError("no server");
    expect([c.name, c.message]).toEqual(["CannotStartError", "no server"]);
  });

  it("describes values without dumping them", () => {
    expect(describeValue(null)).toBe("null");
    expect(describeValue([1])).toBe("a list");
    expect(describeValue({})).toBe("a mapping");
    expect(describeValue("x".repeat(40))).toBe(`"${"x".repeat(40)}"`);
    expect(describeValue("x".repeat(41))).toBe(`"${"x".repeat(37)}..."`);
    expect(describeValue('a"b')).toBe('"a\\"b"');
    expect(describeValue(3)).toBe("number 3");
    expect(describeValue(true)).toBe("boolean true");
    expect(describeValue(undefined)).toBe("undefined undefined");
  });
});

describe("levels and judged methods", () => {
  it("judges exactly tools/call, resources/read and prompts/get", () => {
    expect([...JUDGED_METHODS].sort()).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });

  it("maps each verdict at each level", () => {
    expect(outcomeFor("observe", "deny")).toBe("forward");
    expect(outcomeFor("enforce", "allow")).toBe("forward");
    expect(outcomeFor("enforce", "deny")).toBe("refuse");
    expect(outcomeFor("strict", "deny")).toBe("refuse");
    expect(outcomeFor("enforce", "confirm")).toBe("forward-noted");
    expect(outcomeFor("strict", "confirm")).toBe("ask");
    expect(["observe", "enforce", "strict", "Strict", ""].map(parseLevel)).toEqual([
      "observe",
      "enforce",
      "strict",
      undefined,
      undefined,
    ]);
  });
});

describe("terminal text", () => {
  const unsafe = new RegExp(`^[${UNSAFE_CHAR_CLASS}]$`);
  it("counts controls, bidi and zero-width characters as unsafe, and nothing else", () => {
    for (const ch of [
      "\u0000",
      "\u001b",
      "\u001f",
      "\u007f",
      "\u0085",
      "\u009f",
      "\u061c",
      "\u200b",
      "\u200f",
      "\u2028",
      "\u202e",
      "\u2060",
      "\u2069",
      "\ufeff",
    ])
      expect(unsafe.test(ch), ch.charCodeAt(0).toString(16)).toBe(true);
    for (const ch of [
      " ",
      "~",
      "\u00a0",
      "\u00ff",
      "\u061b",
      "\u200a",
      "\u2010",
      "\u2027",
      "\u202f",
      "\u205f",
      "\u206a",
      "\ufefe",
      "é",
    ])
      expect(unsafe.test(ch), ch.charCodeAt(0).toString(16)).toBe(false);
  });

  it("escapes up to U+00FF as \\xNN and above as \\uNNNN", () => {
    expect(charEscape("\u0007")).toBe("\\x07");
    expect(charEscape("\u00ff")).toBe("\\xff");
    expect(charEscape("\u0100")).toBe("\\u0100");
    expect(charEscape("\u202e")).toBe("\\u202e");
  });
});
