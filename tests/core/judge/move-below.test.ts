import { describe, expect, it } from "vitest";
import { containerTest, moverOperands } from "../../../src/core/effects/containers.js";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import type { Effect } from "../../../src/core/types.js";
import { call, judgeOf } from "../../helpers/judge.js";

// Folders moved, copied or removed as a whole: a protected path below them counts (matchBelow).

const judge = (name: string, args: Record<string, unknown>, opts: Parameters<typeof judgeOf>[0] = {}) =>
  judgeOf(opts).judge("tools/call", call(name, args));

const WIN: PlatformProfile = {
  platform: "win32",
  home: "C:\\Users\\user",
  env: { USERPROFILE: "C:\\Users\\user" },
  cwd: "C:\\Users\\user\\project",
};

describe("move_file: source and destination may be folders", () => {
  it("denies moving a prepared folder onto a repository's .git, saying why", () => {
    const d = judge("move_file", { source: "staged", destination: "repo/.git" });
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny **/.git/hooks/**");
    expect(d.reason).toContain("/home/user/project/repo/.git");
    expect(d.reason).toMatch(/folder that holds paths matched by paths\.deny \*\*\/\.git\/hooks\/\*\*/);
    expect(d.effects[0]).toMatchObject({
      at: "arguments.destination",
      canonical: "/home/user/project/repo/.git",
    });
  });

  it("denies moving the home folder away (the source holds ~/.ssh)", () => {
    const d = judge("move_file", { source: "~", destination: "/tmp/old-home" });
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    expect(d.effects[0]?.at).toBe("arguments.source");
  });

  it("keeps the direct match when the path itself is protected", () => {
    const d = judge("move_file", { source: "k", destination: "~/.ssh/authorized_keys" });
    expect(d.rule).toBe("paths.deny ~/.ssh/**");
    expect(d.reason).toContain("which matches paths.deny");
  });

  it("allows close moves: src to lib, onto .github-old, a folder that holds a .env", () => {
    for (const [source, destination] of [
      ["src", "lib"],
      ["build", ".github-old"],
      ["app", "app2"],
      ["repo/.git-old", "repo/git"],
    ])
      expect(judge("move_file", { source, destination }).verdict, `${source} -> ${destination}`).toBe(
        "allow",
      );
  });

  it("a below match of confirm upgrades allow to confirm; tainted lists only when tainted", () => {
    const text = `version: 1
paths:
  confirm: ["**/.github/workflows/**"]
  confirm_if_tainted: ["~/bin/**"]
`;
    expect(judge("move_file", { source: "ci", destination: ".github" }, { text })).toMatchObject({
      verdict: "confirm",
      rule: "paths.confirm **/.github/workflows/**",
    });
    expect(judge("move_file", { source: "tools", destination: "~" }, { text }).verdict).toBe("allow");
    const t = judge("move_file", { source: "tools", destination: "~" }, { text, tainted: true });
    expect(t).toMatchObject({ verdict: "confirm", rule: "paths.confirm_if_tainted ~/bin/**" });
    expect(t.reason).toContain("untrusted content");
  });

  it("a deny below wins over a confirm on the path itself", () => {
    const text = `version: 1
paths:
  deny: ["**/.git/hooks/**"]
  confirm: ["**/.git"]
`;
    expect(judge("move_file", { source: "x", destination: "r/.git" }, { text })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.git/hooks/**",
    });
  });

  it("folds case where the platform does", () => {
    expect(judge("move_file", { source: "x", destination: "repo\\.GIT" }, { profile: WIN }).rule).toBe(
      "paths.deny **/.git/hooks/**",
    );
    expect(judge("move_file", { source: "x", destination: "repo/.GIT" }).verdict).toBe("allow");
  });
});

describe("which paths count as folders", () => {
  it("plain writes are judged by the path alone", () => {
    expect(judge("write_file", { path: "repo/.git" }).verdict).toBe("allow");
    expect(judge("create_directory", { path: "~" }).verdict).toBe("allow");
    expect(judge("update_settings", { target: "repo/.git" }).verdict).toBe("allow");
  });

  it("unfamiliar tools whose names move, copy or unpack", () => {
    for (const tool of ["rename_folder", "copy-tree", "unzip_archive"])
      expect(judge(tool, { path: "repo/.git" }).rule, tool).toBe("paths.deny **/.git/hooks/**");
    expect(judge("rename_folder", { path: "build" }).verdict).toBe("allow");
  });

  it("a removal counts only anchored patterns below it: a project folder's names plant nothing", () => {
    for (const tool of ["delete_directory", "removeDir", "rm"]) {
      expect(judge(tool, { path: "repo/.git" }).verdict, tool).toBe("allow");
      expect(judge(tool, { path: "~" }).verdict, tool).toBe("deny");
    }
  });

  it("reads count for a mover tool's declared arguments only (judgeBelow picks deny_read for them)", () => {
    const isContainer = containerTest("move_file", {}, false);
    const e = (operation: Effect["operation"], at: string): Effect => ({
      operation,
      kind: "path",
      at,
      spelled: "x",
    });
    expect(isContainer(e("write", "arguments.source"))).toBe("place");
    expect(isContainer(e("write", "arguments.destination"))).toBe("place");
    expect(isContainer(e("write", "arguments.other"))).toBeUndefined();
    expect(isContainer(e("read", "arguments.source"))).toBe("place");
    expect(isContainer(e("exec", "arguments.source"))).toBeUndefined();
    expect(containerTest("read_text_file", {}, false)(e("read", "arguments.path"))).toBeUndefined();
    expect(isContainer(e("read", "arguments.other"))).toBeUndefined();
    expect(containerTest("read_text_file", {}, false)(e("write", "arguments.path"))).toBeUndefined();
    expect(containerTest("delete_directory", {}, false)(e("write", "arguments.path"))).toBe("remove");
  });
});

describe("mover programs inside commands", () => {
  it("finds the operands of mv, cp and friends, and nothing else", () => {
    expect(moverOperands("mv staged repo/.git")).toEqual(["staged", "repo/.git"]);
    expect(moverOperands("cd ~ && cp -r build out; ls ~")).toEqual(["build", "out"]);
    expect(moverOperands("rm -rf node_modules")).toEqual([]);
    expect(moverOperands("sudo FOO=1 /bin/cp -r a ~/.config")).toEqual(["a", "~/.config"]);
    // Read by a POSIX shell (`\r` is `r`) and by PowerShell (`\` is a separator): both count.
    expect(moverOperands("Move-Item -Path a -Destination C:\\r\\.git")).toEqual([
      "a",
      "C:r.git",
      "C:\\r\\.git",
    ]);
    expect(moverOperands("robocopy.exe src D:\\dst /E")).toEqual(["src", "D:dst", "/E", "D:\\dst"]);
    expect(moverOperands("git mv a b")).toEqual([]);
    expect(moverOperands("echo mv a b")).toEqual([]);
  });

  it("an exec call moving onto .git is denied, with the working directory applied", () => {
    expect(judge("run_command", { command: "mv staged repo/.git" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.git/hooks/**",
    });
    // `user` alone is /home/user/project/user; only in the call's working directory is it ~.
    const d = judge("run_command", { command: "mv x user", cwd: "/home" });
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    expect(d.reason).toContain("/home/user as a whole");
    expect(judge("run_command", { command: "mv x user" }).verdict).toBe("confirm");
  });

  it("cp -r into ~ is denied; rm -rf node_modules and cd ~ stay the exec verdict", () => {
    expect(judge("shell_exec", { command: "cp -r dotfiles/. ~" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.ssh/**",
    });
    expect(judge("shell_exec", { command: "rm -rf node_modules" })).toMatchObject({
      verdict: "confirm",
      rule: "exec *exec*",
    });
    expect(judge("shell_exec", { command: "rm -rf ~" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.ssh/**",
    });
    expect(judge("shell_exec", { command: "cd ~ && ls" })).toMatchObject({
      verdict: "confirm",
      rule: "exec *exec*",
    });
    expect(judge("shell_exec", { command: "mv src lib" }).verdict).toBe("confirm");
  });

  it("an argv array", () => {
    expect(judge("run_command", { command: ["mv", "a", "/x/repo/.git"] }).rule).toBe(
      "paths.deny **/.git/hooks/**",
    );
  });
});
