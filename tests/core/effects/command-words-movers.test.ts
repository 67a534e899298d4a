import { describe, expect, it } from "vitest";
import { containerTest, moverOperands } from "../../../src/core/effects/containers.js";
import type { Effect } from "../../../src/core/types.js";
import { call, judgeOf } from "../../helpers/judge.js";

// Mover and remover operands behind wrappers, keywords, scripts and split argv (D6 of the exec
// hunt; docs/decisions/0062-exec-words-as-a-shell-reads-them.md).

const judge = (name: string, args: Record<string, unknown>) =>
  judgeOf().judge("tools/call", call(name, args));

const write = (spelled: string): Effect => ({
  operation: "write",
  kind: "path",
  at: "arguments.command",
  spelled,
});

const MOVES = [
  "sh -c 'mv /tmp/prep repo/.git'",
  'bash -lc "mv /tmp/prep repo/.git"',
  "zsh -c 'mv /tmp/prep repo/.git'",
  "bash -o pipefail -ec 'mv /tmp/prep repo/.git'",
  "sudo -u root mv /tmp/prep repo/.git",
  "nice -n 5 mv /tmp/prep repo/.git",
  "env -u X mv /tmp/prep repo/.git",
  "timeout 5 mv /tmp/prep repo/.git",
  "time -p mv /tmp/prep repo/.git",
  "nohup mv /tmp/prep repo/.git",
  "busybox mv /tmp/prep repo/.git",
  "if true; then mv /tmp/prep repo/.git; fi",
  "for i in 1; do mv /tmp/prep repo/.git; done",
  "! mv /tmp/prep repo/.git",
  "{ mv /tmp/prep repo/.git; }",
  "echo repo/.git | xargs mv /tmp/prep",
  "pwsh -Command Move-Item /tmp/prep repo/.git",
  "cmd /c move C:\\prep repo/.git",
  "eval mv /tmp/prep repo/.git",
  "sh -c \"sudo sh -c 'mv /tmp/prep repo/.git'\"",
  "Expand-Archive evil.zip -DestinationPath repo/.git",
  "tar -xf evil.tar -C repo/.git",
];

describe("mover operands behind wrappers, keywords and scripts", () => {
  it.each(MOVES)("%s moves onto repo/.git", (command) => {
    expect(moverOperands(command)).toContain("repo/.git");
    expect(judge("run_command", { command })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.git/hooks/**",
    });
  });

  it("reads PowerShell's -EncodedCommand", () => {
    const encoded = Buffer.from("Move-Item /tmp/prep repo/.git", "utf16le").toString("base64");
    expect(moverOperands(`powershell -EncodedCommand ${encoded}`)).toContain("repo/.git");
  });

  it("sees removals inside a script", () => {
    expect(moverOperands("sh -c 'rm -rf ~/.config'", new Set(["rm"]))).toContain("~/.config");
    expect(containerTest("run_it", { command: "sh -c 'rm -rf ~/.config'" }, true)(write("~/.config"))).toBe(
      "remove",
    );
  });

  it("does not take a word after a program that is no wrapper for a program", () => {
    expect(moverOperands("echo mv a b")).toEqual([]);
    expect(moverOperands("git mv a b")).toEqual([]);
    expect(moverOperands("grep -r mv src")).toEqual([]);
  });
});

describe("program and argv in separate arguments", () => {
  it("reads {command, args} together", () => {
    const t = containerTest("run_command", { command: "mv", args: ["/tmp/prep", "repo/.git"] }, true);
    expect(t(write("repo/.git"))).toBe("place");
    expect(judge("run_command", { command: "mv", args: ["/tmp/prep", "repo/.git"] })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.git/hooks/**",
    });
  });

  it("reads an argv list as words, spaces and all", () => {
    expect(moverOperands(["mv", "/tmp/my prep", "repo/my .git"])).toContain("repo/my .git");
  });
});

describe("globs in removed and placed operands", () => {
  it("a glob in a removal counts its folder as removed, not placed", () => {
    const t = containerTest("run_it", { command: "rm -rf node_modules/*" }, true);
    expect(t(write("node_modules"))).toBe("remove");
    const u = containerTest("run_it", { command: "cat ~/.ss?/id_rsa" }, true);
    expect(u(write("~"))).toBe("place");
  });

  it("places a glob's folder in each working directory", () => {
    const t = containerTest("run_it", { command: "cp k .ss?/x", cwd: "/a", workdir: "/b" }, true);
    expect(t(write("/a/."))).toBe("place");
    expect(t(write("/b/."))).toBe("place");
  });
});
