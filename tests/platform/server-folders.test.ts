import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverFolders } from "../../src/platform/server-folders.js";
import { call, judgeOf, PROFILE } from "../helpers/judge.js";

describe("relative paths judged from the server's other folders", () => {
  const judge = judgeOf({ bases: ["/home/user"] });

  it("a relative path that names a protected file from one of them is denied", () => {
    const d = judge.judge("tools/call", call("write_file", { path: ".bashrc", content: "x" }));
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny ~/.bashrc");
    expect(d.reason).toContain("/home/user/.bashrc");
    // Both readings are listed, the deciding one first.
    expect(d.effects.map((e) => e.canonical)).toEqual(["/home/user/.bashrc", "/home/user/project/.bashrc"]);
  });

  it("without bases only the working folder is read, and an absolute path is judged once", () => {
    expect(judgeOf().judge("tools/call", call("write_file", { path: ".bashrc" })).verdict).toBe("allow");
    const d = judge.judge("tools/call", call("write_file", { path: "/home/user/project/a.txt" }));
    expect(d.verdict).toBe("allow");
    expect(d.effects).toHaveLength(1);
  });

  it("a folder move is judged below each reading", () => {
    // From /home, `user` is the home folder itself: moving a folder onto it replaces ~/.ssh.
    const move = call("move_file", { source: "staged", destination: "user" });
    expect(judgeOf().judge("tools/call", move).verdict).toBe("allow");
    const d = judgeOf({ bases: ["/home"] }).judge("tools/call", move);
    expect(d.verdict).toBe("deny");
    expect(d.reason).toContain("/home/user as a whole");
  });
});

describe("serverFolders", () => {
  it("keeps the existing folders named on the command line, ~ expanded, the working folder left out", () => {
    const root = mkdtempSync(join(tmpdir(), "eg-folders-"));
    const home = join(root, "home");
    const code = join(home, "code");
    const cwd = join(root, "cwd");
    mkdirSync(code, { recursive: true });
    mkdirSync(join(cwd, "sub"), { recursive: true });
    const profile = { ...PROFILE, home, cwd };
    const argv = [
      "npx",
      "-y",
      "@scope/server",
      "~/code",
      "sub",
      ".",
      cwd,
      "--root=~",
      "--flag",
      "missing",
      "~",
    ];
    expect(serverFolders(argv, profile)).toEqual([code, join(cwd, "sub"), home]);
  });

  it("reads a command line inside one word (sh -c), and $HOME as the shell expands it", () => {
    const root = mkdtempSync(join(tmpdir(), "eg-folders-"));
    const home = join(root, "home");
    const code = join(home, "code");
    mkdirSync(code, { recursive: true });
    const profile = { ...PROFILE, home, cwd: root };
    expect(serverFolders(["sh", "-c", "exec node server.js ~"], profile)).toEqual([home]);
    expect(serverFolders(["bash", "-lc", 'cd x && npx -y srv "$HOME/code"'], profile)).toEqual([code]);
    expect(serverFolders(["cmd", "/c", "srv ${HOME}/code;srv2 $HOMEX"], profile)).toEqual([code]);
  });
});
