import { describe, expect, it } from "vitest";
import { effectEntries } from "../../../src/core/gate/effect-key.js";
import type { Effect } from "../../../src/core/types.js";

// The words a question and a grant file show for each effect, and their fixed order.
const effect = (operation: Effect["operation"], kind: Effect["kind"], spelled: string): Effect => ({
  operation,
  kind,
  at: "arguments.x",
  spelled,
});

describe("effectEntries", () => {
  it("names each kind of effect with its verb, and an unlisted pair by both its words", () => {
    expect(
      effectEntries([
        effect("exec", "path", "./build.sh"),
        effect("read", "url", "https://x.example/"),
        effect("send", "egress", "x.example"),
      ]),
    ).toEqual([
      { verb: "fetch", target: "https://x.example/" },
      { verb: "run-file", target: "./build.sh" },
      { verb: "send-egress", target: "x.example" },
    ]);
  });

  it("orders many effects by verb, then target, whatever order they came in", () => {
    const targets = ["/p/k", "/p/b", "/p/z", "/p/a", "/p/m", "/p/c", "/p/y", "/p/d", "/p/x", "/p/e"];
    const found = targets.flatMap((t, i) => [
      effect(i % 2 === 0 ? "write" : "read", "path", t),
      effect("exec", "command", `make ${t}`),
    ]);
    const got = effectEntries(found);
    const want = [...got].sort((a, b) =>
      a.verb === b.verb ? (a.target < b.target ? -1 : 1) : a.verb < b.verb ? -1 : 1,
    );
    expect(got).toEqual(want);
    expect(got).toHaveLength(20);
    expect(effectEntries([...found].reverse())).toEqual(want);
  });

  it("keeps that order past the length where the sort starts merging runs", () => {
    // 300 targets in a scrambled order (a multiplicative step through 0..299).
    const found = Array.from({ length: 300 }, (_, i) =>
      effect("read", "path", `/p/${String((i * 97) % 300).padStart(3, "0")}`),
    );
    const got = effectEntries(found).map((e) => e.target);
    expect(got).toEqual([...got].sort());
    expect(got[0]).toBe("/p/000");
    expect(got[299]).toBe("/p/299");
  });
});
