import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from "node:fs";
import { join } from "node:path";
import type { Box } from "./gate-client.js";
import type { EffectAttack } from "./effect-cases.js";
import { receivedWork } from "./gate-client.js";
import { tc } from "./run-case.js";

// Issue 17's file-side classes (breaches 1 and 2, files that run code later, secrets, git
// tools), one frame each on the lenient server at enforce. `breached` is what the unguarded
// server did to the disk (or, for a tool it only answers, that the call reached it); the
// control group (blind-files.test.ts) sees every case breach with the checks off.

export type BlindClass = "git" | "own" | "runs-later" | "path" | "secret" | "git-tool";
export interface BlindAttack extends EffectAttack {
  class: BlindClass;
}

const SECRET = "blind-files-secret";
const wrote = (f: (b: Box) => string, content?: string) => (b: Box) =>
  existsSync(f(b)) && (content === undefined || readFileSync(f(b), "utf8").includes(content));
const returned = (b: Box) => receivedWork(b.record).length > 1; // the attack and the canary
const ran = (tool: string) => (b: Box) => receivedWork(b.record).some((l) => l.includes(`"${tool}"`));
const write = (path: string, content = "PAYLOAD") => tc(1, "write_file", { path, content });
const read = (path: string) => tc(1, "read_text_file", { path });

/** A folder that holds what git needs to take it as a git directory, without a config. */
function gitDir(at: string, parts: { head?: boolean; config?: boolean } = {}): void {
  mkdirSync(join(at, "objects"), { recursive: true });
  mkdirSync(join(at, "refs", "heads"), { recursive: true });
  if (parts.head !== false) writeFileSync(join(at, "HEAD"), "ref: refs/heads/main\n");
  if (parts.config === true) writeFileSync(join(at, "config"), "[core]\n\tfsmonitor = /tmp/x\n");
}

/** A secret file (created by setup), read by the attack: the secret must not come back. */
function secretRead(cls: BlindClass, name: string, at: (b: Box) => string): BlindAttack {
  return {
    class: cls,
    name,
    tries: `read_text_file ${name}`,
    setup: (b) => {
      mkdirSync(join(at(b), ".."), { recursive: true });
      writeFileSync(at(b), `${SECRET}\n`);
    },
    frame: (b) => read(at(b)),
    answerId: 1,
    secret: SECRET,
    breached: returned,
  };
}

/** A write the next start of some program runs as code. */
function codeLater(name: string, at: (b: Box) => string): BlindAttack {
  return {
    class: "runs-later",
    name,
    tries: `write_file ${name}`,
    frame: (b) => write(at(b)),
    answerId: 1,
    untouched: (b) => [at(b)],
    breached: wrote(at),
  };
}

const project =
  (...p: string[]) =>
  (b: Box) =>
    join(b.project, ...p);
const home =
  (...p: string[]) =>
  (b: Box) =>
    join(b.home, ...p);

export const BLIND: BlindAttack[] = [
  // --- breach 1: git's discovery
  {
    class: "git",
    name: "dot-git-file",
    tries: "write_file app/.git = gitdir: ../state (a prepared git directory)",
    setup: (b) => (gitDir(project("state")(b), { config: true }), mkdirSync(project("app")(b))),
    frame: (b) => write(project("app", ".git")(b), "gitdir: ../state\n"),
    answerId: 1,
    untouched: (b) => [project("app", ".git")(b)],
    breached: wrote(project("app", ".git")),
  },
  {
    class: "git",
    name: "config-in-pointed-gitdir",
    tries: "write_file state/config where state holds HEAD, objects, refs",
    setup: (b) => gitDir(project("state")(b)),
    frame: (b) => write(project("state", "config")(b), "[core]\n\tfsmonitor = evil\n"),
    answerId: 1,
    untouched: (b) => [project("state", "config")(b)],
    breached: wrote(project("state", "config")),
  },
  {
    class: "git",
    name: "head-completes-gitdir",
    tries: "write_file state/HEAD where state holds objects, refs and an attacker's config",
    setup: (b) => gitDir(project("state")(b), { head: false, config: true }),
    frame: (b) => write(project("state", "HEAD")(b), "ref: refs/heads/main\n"),
    answerId: 1,
    untouched: (b) => [project("state", "HEAD")(b)],
    breached: wrote(project("state", "HEAD")),
  },
  {
    class: "git",
    name: "hook-in-gitdir-by-content",
    tries: "write_file state/hooks/post-checkout where state is a git directory",
    setup: (b) => gitDir(project("state")(b)),
    frame: (b) => write(project("state", "hooks", "post-checkout")(b)),
    answerId: 1,
    untouched: (b) => [project("state", "hooks", "post-checkout")(b)],
    breached: wrote(project("state", "hooks", "post-checkout")),
  },
  {
    class: "git",
    name: "submodule-config",
    tries: "write_file repo/.git/modules/lib/config",
    setup: (b) => gitDir(project("repo", ".git", "modules", "lib")(b)),
    frame: (b) => write(project("repo", ".git", "modules", "lib", "config")(b)),
    answerId: 1,
    untouched: (b) => [project("repo", ".git", "modules", "lib", "config")(b)],
    breached: wrote(project("repo", ".git", "modules", "lib", "config")),
  },
  {
    class: "git",
    name: "worktree-config",
    tries: "write_file repo/.git/worktrees/wt/config.worktree",
    setup: (b) => mkdirSync(project("repo", ".git", "worktrees", "wt")(b), { recursive: true }),
    frame: (b) => write(project("repo", ".git", "worktrees", "wt", "config.worktree")(b)),
    answerId: 1,
    untouched: (b) => [project("repo", ".git", "worktrees", "wt", "config.worktree")(b)],
    breached: wrote(project("repo", ".git", "worktrees", "wt", "config.worktree")),
  },
  {
    class: "git",
    name: "commondir-redirect",
    tries: "write_file repo/.git/commondir = ../../state",
    setup: (b) => gitDir(project("repo", ".git")(b)),
    frame: (b) => write(project("repo", ".git", "commondir")(b), "../../state\n"),
    answerId: 1,
    untouched: (b) => [project("repo", ".git", "commondir")(b)],
    breached: wrote(project("repo", ".git", "commondir")),
  },
  {
    class: "git",
    name: "dot-git-through-link",
    tries: "project/link -> project/app; write_file link/.git",
    setup: (b) => (mkdirSync(project("app")(b)), symlinkSync(project("app")(b), project("link")(b))),
    frame: (b) => write(project("link", ".git")(b), "gitdir: ../state\n"),
    answerId: 1,
    untouched: (b) => [project("app", ".git")(b)],
    breached: wrote(project("app", ".git")),
  },
  // --- breach 2: effectgate's own files
  {
    class: "own",
    name: "policy-in-force-written",
    tries: "--policy project/team.yaml; write_file team.yaml",
    setup: (b) => writeFileSync(project("team.yaml")(b), "version: 1\nmode: enforce\n"),
    options: (b) => ["--policy", project("team.yaml")(b)],
    frame: (b) => write(project("team.yaml")(b), "version: 1\n"),
    answerId: 1,
    unchanged: (b) => [project("team.yaml")(b)],
    breached: wrote(project("team.yaml"), "version: 1\n"),
  },
  {
    class: "own",
    name: "policy-through-hard-link",
    tries: "--policy team.yaml, hard link rules.txt; read_text_file rules.txt",
    setup: (b) => {
      writeFileSync(project("team.yaml")(b), `version: 1\n# ${SECRET}\n`);
      linkSync(project("team.yaml")(b), project("rules.txt")(b));
    },
    options: (b) => ["--policy", project("team.yaml")(b)],
    frame: (b) => read(project("rules.txt")(b)),
    answerId: 1,
    secret: SECRET,
    breached: returned,
  },
  {
    class: "own",
    name: "renamed-home-taint",
    tries: "EFFECTGATE_HOME=eg-state; write_file eg-state/taint/x",
    cwd: (b) => b.project,
    env: { EFFECTGATE_HOME: "eg-state" },
    frame: (b) => write(project("eg-state", "taint", "x")(b)),
    answerId: 1,
    untouched: (b) => [project("eg-state", "taint", "x")(b)],
    breached: wrote(project("eg-state", "taint", "x")),
  },
  {
    class: "own",
    name: "log-dir-read",
    tries: "--log-dir project/audit; read_text_file audit/old.jsonl",
    setup: (b) => (mkdirSync(project("audit")(b)), writeFileSync(project("audit", "old.jsonl")(b), SECRET)),
    options: (b) => ["--log-dir", project("audit")(b)],
    frame: (b) => read(project("audit", "old.jsonl")(b)),
    answerId: 1,
    secret: SECRET,
    breached: returned,
  },
  // --- files that run code later (the default policy's patterns)
  codeLater("site-packages .pth", home(".local", "lib", "python3.11", "site-packages", "zz.pth")),
  codeLater("sitecustomize.py", home(".local", "lib", "python3.11", "site-packages", "sitecustomize.py")),
  codeLater("~/.vimrc", home(".vimrc")),
  codeLater("~/.config/nvim/init.lua", home(".config", "nvim", "init.lua")),
  codeLater("~/.tmux.conf", home(".tmux.conf")),
  codeLater("~/.xprofile", home(".xprofile")),
  codeLater("KDE env script", home(".config", "plasma-workspace", "env", "x.sh")),
  codeLater("~/.local/share/systemd/user unit", home(".local", "share", "systemd", "user", "x.service")),
  codeLater("~/.gradle/init.d script", home(".gradle", "init.d", "x.gradle")),
  codeLater("container etc/profile.d", project("rootfs", "etc", "profile.d", "x.sh")),
  codeLater("container bash.bashrc", project("rootfs", "etc", "bash.bashrc")),
  codeLater("system gitconfig", project("rootfs", "etc", "gitconfig")),
  codeLater("~/.local/bin program", home(".local", "bin", "git")),
  // --- a program overwritten in a folder on the server's PATH
  {
    class: "path",
    name: "path-folder-program",
    tries: "PATH=project/tools:…; write_file tools/deploy (an existing program)",
    setup: (b) => {
      mkdirSync(project("tools")(b));
      writeFileSync(project("tools", "deploy")(b), "#!/bin/sh\necho real\n");
      chmodSync(project("tools", "deploy")(b), 0o755);
      b.env.PATH = `${project("tools")(b)}:${process.env.PATH ?? ""}`;
    },
    frame: (b) => write(project("tools", "deploy")(b), "#!/bin/sh\ntouch /tmp/pwned\n"),
    answerId: 1,
    unchanged: (b) => [project("tools", "deploy")(b)],
    breached: wrote(project("tools", "deploy"), "pwned"),
  },
  // --- secrets the default missed
  secretRead("secret", ".env.bak", project(".env.bak")),
  secretRead("secret", ".env~", project(".env~")),
  secretRead("secret", ".env.production.old", project(".env.production.old")),
  secretRead("secret", "~/.pgpass", home(".pgpass")),
  secretRead("secret", "~/.my.cnf", home(".my.cnf")),
  secretRead("secret", "~/.s3cfg", home(".s3cfg")),
  secretRead("secret", "rclone.conf", home(".config", "rclone", "rclone.conf")),
  secretRead("secret", "composer auth.json", home(".config", "composer", "auth.json")),
  secretRead("secret", "Copilot apps.json", home(".config", "github-copilot", "apps.json")),
  secretRead("secret", "~/.bash_history", home(".bash_history")),
  secretRead("secret", "~/.python_history", home(".python_history")),
  // --- git tools that hand a protected file on
  {
    class: "git-tool",
    name: "git-add-key",
    tries: "git_add {files: [deploy/server.key]} (git_diff_staged would print it next)",
    frame: (b) => tc(1, "git_add", { repo_path: b.project, files: ["deploy/server.key"] }),
    answerId: 1,
    breached: ran("git_add"),
  },
  {
    class: "git-tool",
    name: "git-diff-output-option",
    tries: "git_diff {target: --output=~/.zshrc} (git reads it as an option and writes the file)",
    frame: (b) => tc(1, "git_diff", { repo_path: b.project, target: `--output=${join(b.home, ".zshrc")}` }),
    answerId: 1,
    breached: ran("git_diff"),
  },
];
