// Paths longer than any system call accepts name no file (MAX_PATH_CHARS); paths that only look
// long but fold to a short one are judged as usual.
import { describe, expect, it } from "vitest";
import { canonicalise, LEXICAL_ONLY, MAX_PATH_CHARS } from "../../../src/core/paths/canonical.js";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { call, judgeOf, PROFILE } from "../../helpers/judge.js";

/** A resolver that remembers what it was asked. */
function askedResolver(): PathResolver & { asked: string[] } {
  const asked: string[] = [];
  return { asked, realpath: (p) => (asked.push(p), undefined) };
}

describe("paths longer than any system accepts", () => {
  it("a name longer than the limit as written and as normalised names no file, and the file system is not asked", () => {
    const r = askedResolver();
    const c = canonicalise("y".repeat(MAX_PATH_CHARS + 1), PROFILE, r);
    expect(c).toMatchObject({ ok: true, namesNoFile: true });
    expect(r.asked).toEqual([]);
  });

  it("exactly at the limit it is still an ordinary path", () => {
    const r = askedResolver();
    // Written: exactly the limit; normalised under the cwd it is longer, but written it is not.
    const c = canonicalise("y".repeat(MAX_PATH_CHARS), PROFILE, r);
    expect(c.ok && c.namesNoFile).toBeFalsy();
    expect(r.asked).toHaveLength(1);
    // Absolute, exactly the limit both ways.
    const abs = `/${"z".repeat(MAX_PATH_CHARS - 1)}`;
    const d = canonicalise(abs, PROFILE, LEXICAL_ONLY);
    expect(d).toMatchObject({ ok: true, lexical: abs });
    expect(d.ok && d.namesNoFile).toBeFalsy();
  });

  it("a spelling over the limit whose normal form is exactly at it is still a path", () => {
    const abs = `/${"z".repeat(MAX_PATH_CHARS - 1)}`;
    const c = canonicalise(`/a/..${abs}`, PROFILE, LEXICAL_ONLY);
    expect(c).toMatchObject({ ok: true, lexical: abs });
    expect(c.ok && c.namesNoFile).toBeFalsy();
  });

  it("a long spelling that folds to a short path is judged by the short one", () => {
    const spelled = `${"a/../".repeat(10_000)}../.ssh/authorized_keys`; // 50,000+ characters
    expect(spelled.length).toBeGreaterThan(MAX_PATH_CHARS);
    const c = canonicalise(spelled, PROFILE, LEXICAL_ONLY);
    expect(c).toMatchObject({ ok: true, lexical: "/home/user/.ssh/authorized_keys" });
    expect(c.ok && c.namesNoFile).toBeFalsy();
    const d = judgeOf().judge("tools/call", call("write_file", { path: spelled, content: "k" }));
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny ~/.ssh/**");
  });

  it("a short spelling whose normal form is long is still judged (a server may pass it on as written)", () => {
    const deep = { ...PROFILE, cwd: `/home/user/${"d".repeat(MAX_PATH_CHARS)}` };
    const c = canonicalise(".env", deep, LEXICAL_ONLY);
    expect(c.ok && c.namesNoFile).toBeFalsy();
  });

  it("a megabyte string to an unknown tool is allowed, saying why, without matching it against rules", () => {
    const huge = "y".repeat(4 * 1024 * 1024);
    const x = judgeOf().explain("tools/call", call("frobnicate", { blob: huge }));
    expect(x.decision.verdict).toBe("allow");
    const item = x.items.find((i) => i.effect.at === "arguments.blob");
    expect(item?.reason).toContain(`a path of ${huge.length} characters at arguments.blob`);
    expect(item?.reason).toContain("names no file");
    expect(item?.reason.length).toBeLessThan(300); // the text itself is not repeated
    expect(item?.lexical).toBeUndefined();
    expect(x.decision.effects[0]?.canonical).toBeUndefined();
  });

  it("a write of such a path by a known tool is allowed too: no file can be written", () => {
    const path = `~/.ssh/${"k".repeat(MAX_PATH_CHARS)}`;
    const x = judgeOf().explain("tools/call", call("write_file", { path, content: "k" }));
    expect(x.decision.verdict).toBe("allow");
    expect(x.items[0]?.reason).toMatch(
      /^write_file would write a path of \d+ characters at arguments\.path: /,
    );
    // One character shorter and it is an ordinary path under ~/.ssh: denied.
    const shorter = `/home/user/.ssh/${"k".repeat(MAX_PATH_CHARS - "/home/user/.ssh/".length)}`;
    expect(judgeOf().judge("tools/call", call("write_file", { path: shorter, content: "k" })).verdict).toBe(
      "deny",
    );
  });
});
