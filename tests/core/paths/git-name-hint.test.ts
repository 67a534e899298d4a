// The quick look that lets gitConfigWrite and Planted skip most paths (decision 0146) must let
// through every path that holds one of git's names, in any case and through Unicode folding.
import { describe, expect, it } from "vitest";
import { gitConfigWrite, mayHoldGitName } from "../../../src/core/paths/git-dirs.js";
import { LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";

describe("mayHoldGitName", () => {
  it("passes git's names in any case, and leaves out paths without them", () => {
    for (const p of [
      "/r/.git",
      "/r/HEAD",
      "/r/Objects/x",
      "/r/refs",
      "/r/CONFIG.worktree",
      "/r/commondir",
      "/r/hooks/x",
    ])
      expect(mayHoldGitName(p)).toBe(true);
    expect(mayHoldGitName("/home/u/proj/src/index.ts")).toBe(false);
  });

  it("keeps a write that folding makes a hook: the Kelvin sign lower-cases to k", () => {
    expect(mayHoldGitName("/w/bare/hoo\u212As/pre-commit")).toBe(true);
    const facts = { resolver: LEXICAL_ONLY };
    expect(gitConfigWrite("/w/.git/hoo\u212As/pre-commit", "darwin", facts)?.gitDir).toBe("/w/.git");
    expect(gitConfigWrite("C:\\w\\.git\\HOO\u212AS\\pre-commit", "win32", facts)?.gitDir).toBe("C:\\w\\.git");
    // Not on linux, where names are not folded: that is another name, as before.
    expect(gitConfigWrite("/w/.git/hoo\u212As/pre-commit", "linux", facts)).toBeUndefined();
    expect(gitConfigWrite("/w/.git/hooks/pre-commit", "linux", facts)?.gitDir).toBe("/w/.git");
  });
});
