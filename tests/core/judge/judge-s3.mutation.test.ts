// judge-effect.ts: only the path's own canonical forms are matched against the rules.
import { describe, expect, it } from "vitest";
import { call, judgeOf } from "../../helpers/judge.js";

describe("forms judged for a path", () => {
  it("a path without a link step is judged by its lexical and real forms only", () => {
    // A name rule that would match any extra text ending in "here": nothing but the path's own
    // forms may be offered to it.
    const judge = judgeOf({ text: 'version: 1\npaths:\n  deny: ["**/*here"]\n' });
    expect(judge.judge("tools/call", call("write_file", { path: "/tmp/x", content: "" })).verdict).toBe(
      "allow",
    );
    expect(
      judge.judge("tools/call", call("write_file", { path: "/tmp/over-here", content: "" })).verdict,
    ).toBe("deny");
  });
});
