// Names a server chooses (tool names, argument names, URL schemes) are looked up as own keys only:
// `__proto__`, `toString` or `constructor` must be judged like any other unknown name.
import { describe, expect, it } from "vitest";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { canonicalHost } from "../../../src/core/net/host.js";

const PROTOTYPE_NAMES = ["__proto__", "toString", "constructor", "hasOwnProperty", "valueOf"];

/** The effects as text, with the argument name replaced so two calls can be compared. */
const effectsOf = (tool: string, args: Record<string, unknown>, name?: string) => {
  const out = extractEffects(tool, args, false);
  if (!out.ok) return `error: ${out.error}`;
  const text = JSON.stringify(out.effects);
  return name === undefined ? text : text.replaceAll(name, "NAME");
};

describe("tool names from Object.prototype", () => {
  it.each(PROTOTYPE_NAMES)("%s is judged like an unknown tool, without throwing", (tool) => {
    const args = { path: "~/.ssh/id_rsa", content: "x" };
    expect(effectsOf(tool, args)).toBe(effectsOf("zz_unknown_tool", args));
    expect(effectsOf(tool, args)).toContain("~/.ssh/id_rsa");
  });
});

describe("argument names from Object.prototype", () => {
  it.each(PROTOTYPE_NAMES.filter((n) => n !== "__proto__"))(
    "a write_file argument named %s has no role of its own",
    (name) => {
      const named = { path: "notes.txt", [name]: "~/.bashrc" };
      expect(effectsOf("write_file", named, name)).toBe(
        effectsOf("write_file", { path: "notes.txt", zz_other: "~/.bashrc" }, "zz_other"),
      );
    },
  );

  it("an exec tool's command in an argument named constructor is still read", () => {
    const out = effectsOf("run_command", { constructor: "rm -rf ~/.ssh" }, "constructor");
    expect(out).toBe(effectsOf("run_command", { zz_other: "rm -rf ~/.ssh" }, "zz_other"));
    expect(out).toContain("~/.ssh");
  });
});

describe("URL schemes from Object.prototype", () => {
  it("a constructor:// URL has no default port", () => {
    expect(canonicalHost("constructor://evil.example/x")).toEqual({
      host: "evil.example",
      scheme: "constructor",
    });
    expect(canonicalHost("https://evil.example/x")?.port).toBe(443);
  });
});
