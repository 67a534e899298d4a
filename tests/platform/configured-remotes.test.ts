// The edge that reads the files behind `git push origin` and `ssh alias` (decision 0128): the
// repository's config found from a folder below it, through a worktree's `.git` file, and
// ~/.ssh/config. Real files in a temporary home.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { machineRemotes } from "../../src/platform/configured-remotes.js";

const home = mkdtempSync(join(tmpdir(), "remotes-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const repo = join(home, "project");
mkdirSync(join(repo, ".git"), { recursive: true });
mkdirSync(join(repo, "src", "deep"), { recursive: true });
writeFileSync(join(repo, ".git", "config"), '[remote "origin"]\n\turl = https://one.example/r.git\n');
// A worktree: `.git` is a file naming its git dir, whose commondir is the main repository's.
const wt = join(home, "wt");
mkdirSync(join(repo, ".git", "worktrees", "wt"), { recursive: true });
writeFileSync(join(repo, ".git", "worktrees", "wt", "commondir"), "../..\n");
mkdirSync(wt);
writeFileSync(join(wt, ".git"), `gitdir: ${join(repo, ".git", "worktrees", "wt")}\n`);
mkdirSync(join(home, ".ssh"));
writeFileSync(join(home, ".ssh", "config"), "Host prod\n  HostName 10.1.2.3\n");
mkdirSync(join(home, "plain"));

describe("machineRemotes", () => {
  const m = machineRemotes(home, repo);

  it("finds the repository's config from the server's folder and from folders below it", () => {
    for (const spelled of [undefined, "src/deep", `${repo}/src`, "~/project/src"])
      expect(m.gitConfig(spelled), String(spelled)).toContain("https://one.example/r.git");
  });

  it("follows a worktree's .git file to the main repository's config", () => {
    expect(m.gitConfig(wt)).toContain("https://one.example/r.git");
  });

  it("knows no config outside a repository", () => {
    expect(machineRemotes(home, join(home, "plain")).gitConfig(undefined)).toBeUndefined();
  });

  it("reads ~/.ssh/config as it is now", () => {
    expect(m.sshConfig()).toContain("HostName 10.1.2.3");
    writeFileSync(join(home, ".ssh", "config"), "Host prod\n  HostName 10.9.9.9\n");
    expect(m.sshConfig()).toContain("HostName 10.9.9.9");
    expect(machineRemotes(join(home, "plain"), repo).sshConfig()).toBeUndefined();
  });
});
