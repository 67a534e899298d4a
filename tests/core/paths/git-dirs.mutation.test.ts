import { describe, expect, it } from "vitest";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { gitConfigWrite } from "../../../src/core/paths/git-dirs.js";

// The model of git's discovery (docs/decisions/0067) on a fake disk: each guard is tested on both
// sides, so that a changed name, a dropped condition or a flipped comparison fails a test.

function disk(...present: string[]): PathResolver {
  const set = new Set(present);
  return { realpath: () => undefined, exists: (p) => set.has(p) };
}
const GITDIR = ["/r/d/HEAD", "/r/d/objects", "/r/d/refs"];
const hit = (
  p: string,
  r: PathResolver,
  planted?: (p: string) => boolean,
  platform: "linux" | "darwin" | "win32" = "linux",
) => gitConfigWrite(p, platform, { resolver: r, ...(planted ? { planted } : {}) });

describe("git's discovery entry and named git directories", () => {
  it("a path whose last name is .git is the discovery entry (file or folder)", () => {
    expect(hit("/r/app/.git", disk())?.gitDir).toBe("/r/app/.git");
    expect(hit("/r/app/.gitx", disk())).toBeUndefined();
    expect(hit("/r/app/.git/x/y", disk())).toBeUndefined();
  });

  it("config, config.worktree, commondir and hooks in .git, a submodule's or a worktree's folder", () => {
    for (const p of [
      "/r/.git/config",
      "/r/.git/config.worktree",
      "/r/.git/commondir",
      "/r/.git/hooks",
      "/r/.git/hooks/pre-commit",
      "/r/.git/modules/a/config",
      "/r/.git/modules/a/b/hooks/post-checkout",
      "/r/.git/modules/a/modules/b/config",
      "/r/.git/worktrees/w/config.worktree",
      "/r/.git/worktrees/w/commondir",
    ])
      expect(hit(p, disk()), p).toBeDefined();
  });

  it("other names in .git are its data, and worktrees/<name>/<deeper> is not a worktree's folder", () => {
    for (const p of [
      "/r/.git/refs/heads/main",
      "/r/.git/HEAD",
      "/r/.git/objects/ab/cd",
      "/r/.git/info/exclude",
      "/r/.git/description",
      "/r/.git/worktrees/w/x/config",
      "/r/.git/worktrees/config.worktree",
      "/r/.git/config/x",
      "/r/.git/commondir/x",
    ])
      expect(hit(p, disk()), p).toBeUndefined();
  });

  it("folds names only where the platform does", () => {
    expect(hit("C:\\r\\.GIT", disk(), undefined, "win32")).toBeDefined();
    expect(hit("C:\\r\\.GIT\\Config", disk(), undefined, "win32")).toBeDefined();
    expect(hit("/r/.GIT/config", disk(), undefined, "darwin")).toBeDefined();
    expect(hit("/r/.GIT/config", disk())).toBeUndefined();
    expect(hit("/r/.GIT", disk())).toBeUndefined();
  });
});

describe("a folder that is a git directory because of what it holds", () => {
  it("config and hooks in a folder with HEAD, objects and refs", () => {
    expect(hit("/r/d/config", disk(...GITDIR))?.gitDir).toBe("/r/d");
    expect(hit("/r/d/hooks/pre-commit", disk(...GITDIR))?.gitDir).toBe("/r/d");
    expect(hit("/r/d/config.worktree", disk(...GITDIR))).toBeDefined();
  });

  it("each of HEAD, objects and refs is needed, or commondir for the last two", () => {
    expect(hit("/r/d/config", disk("/r/d/objects", "/r/d/refs"))).toBeUndefined();
    expect(hit("/r/d/config", disk("/r/d/HEAD", "/r/d/refs"))).toBeUndefined();
    expect(hit("/r/d/config", disk("/r/d/HEAD", "/r/d/objects"))).toBeUndefined();
    expect(hit("/r/d/config", disk("/r/d/HEAD", "/r/d/commondir"))).toBeDefined();
    expect(hit("/r/d/commondir", disk("/r/d/HEAD"))).toBeDefined();
    expect(hit("/r/d/commondir", disk())).toBeUndefined();
  });

  it("config must be the last name; hooks may be the folder or below it", () => {
    expect(hit("/r/d/config/x", disk(...GITDIR))).toBeUndefined();
    expect(hit("/r/d/hooks", disk(...GITDIR))).toBeDefined();
    expect(hit("/r/d/x/config", disk(...GITDIR))).toBeUndefined();
  });

  it("the write that completes HEAD, objects and refs in a folder holding config is judged", () => {
    expect(hit("/r/d/HEAD", disk("/r/d/objects", "/r/d/refs", "/r/d/config"))?.gitDir).toBe("/r/d");
    expect(hit("/r/d/objects/ab/cd", disk("/r/d/HEAD", "/r/d/refs", "/r/d/hooks"))?.gitDir).toBe("/r/d");
    expect(hit("/r/d/refs/heads/x", disk("/r/d/HEAD", "/r/d/objects", "/r/d/config.worktree"))).toBeDefined();
    // commondir stands for objects and refs: with HEAD the folder is complete already.
    expect(hit("/r/d/refs/heads/x", disk("/r/d/HEAD", "/r/d/objects", "/r/d/commondir"))).toBeUndefined();
    // Without anything that configures, or before the set is complete, it is data.
    expect(hit("/r/d/HEAD", disk("/r/d/objects", "/r/d/refs"))).toBeUndefined();
    expect(hit("/r/d/HEAD", disk("/r/d/objects", "/r/d/config"))).toBeUndefined();
    // A complete git directory stays one: its HEAD and refs are data.
    expect(hit("/r/d/HEAD", disk(...GITDIR, "/r/d/config"))).toBeUndefined();
    expect(hit("/r/d/refs/heads/x", disk(...GITDIR, "/r/d/config"))).toBeUndefined();
    // HEAD counts as the file only: a folder named HEAD's content is not the mark.
    expect(hit("/r/d/HEAD/x", disk("/r/d/objects", "/r/d/refs", "/r/d/config"))).toBeUndefined();
  });

  it("writes not yet on the disk (planted) count as present", () => {
    const planted = (p: string): boolean => GITDIR.includes(p);
    expect(hit("/r/d/config", disk(), planted)).toBeDefined();
    expect(hit("/r/d/config", disk(), () => false)).toBeUndefined();
  });

  it("names alone when asked for lexicalOnly", () => {
    expect(
      gitConfigWrite("/r/d/config", "linux", { resolver: disk(...GITDIR), lexicalOnly: true }),
    ).toBeUndefined();
    expect(gitConfigWrite("/r/.git/config", "linux", { resolver: disk(), lexicalOnly: true })).toBeDefined();
  });

  it("a relative or unparseable path is never a git write", () => {
    expect(hit("d/config", disk("d/HEAD"))).toBeUndefined();
    expect(hit("/", disk())).toBeUndefined();
  });

  it("a reason names the git directory and the file", () => {
    expect(hit("/r/d/config", disk(...GITDIR))?.why).toMatch(
      /\/r\/d holds HEAD and objects and refs.*reads config/,
    );
    expect(hit("/r/d/HEAD", disk("/r/d/objects", "/r/d/refs", "/r/d/config"))?.why).toMatch(
      /completes.*holds config/,
    );
  });
});
