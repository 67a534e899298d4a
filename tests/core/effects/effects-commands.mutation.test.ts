// Command words, mover/remover operands and the container test: which words of a shell command
// are path candidates, and which written paths may be whole folders placed or removed.
import { describe, expect, it } from "vitest";
import { commandTokens } from "../../../src/core/effects/command-tokens.js";
import { containerTest, moverOperands } from "../../../src/core/effects/containers.js";
import type { Effect } from "../../../src/core/types.js";

const write = (spelled: string, at = "arguments.command"): Effect => ({
  operation: "write",
  kind: "path",
  at,
  spelled,
});

describe("command words", () => {
  it("keeps a dollar sign or brace that is part of a longer word", () => {
    // Only a lone `$` (from `$(`) or a word made only of braces says nothing.
    expect(commandTokens("echo cost$")).toEqual(["echo", "cost$"]);
    // `{a,b}` is also read as bash expands it (decision 0062); `{x` has no alternatives.
    expect(commandTokens("ls {a,b} {x")).toEqual(["ls", "{a,b}", "a", "b", "{x"]);
    expect(commandTokens("echo {} {{ }}")).toEqual(["echo"]);
  });

  it("drops quotes wherever they are in a word", () => {
    expect(commandTokens(`cat "~/.ssh"/id_rsa '/etc'"/passwd"`)).toEqual([
      "cat",
      "~/.ssh/id_rsa",
      "/etc/passwd",
      // Each quoted literal on its own too (code such as `open('/h/.bashrc','a')`).
      "~/.ssh",
      "/etc",
      "/passwd",
    ]);
  });
});

describe("mover operands", () => {
  it("skips an empty assignment before the program", () => {
    // `FOO= mv a b` runs mv with FOO set to the empty string.
    expect(moverOperands("FOO= mv a b")).toEqual(["a", "b"]);
    expect(moverOperands("FOO=x x mv a b")).toEqual([]); // `x` is the program here
  });

  it("recognises a program by its base name, with .exe only as the ending", () => {
    expect(moverOperands("/usr/bin/mv a b")).toEqual(["a", "b"]);
    expect(moverOperands("C:\\bin\\copy.exe a b")).toEqual(["a", "b"]);
    expect(moverOperands(".exemv a b")).toEqual([]);
    expect(moverOperands("mv.exe.bak a b")).toEqual([]);
  });
});

describe("container test", () => {
  it("marks operands of mv/cp as placed and of rm as removed, for exec tools", () => {
    const viaGlob = containerTest("run_it", { command: "mv build ~/.config; rm -rf old" }, true);
    expect(viaGlob(write("~/.config"))).toBe("place");
    expect(viaGlob(write("old"))).toBe("remove");
    expect(viaGlob(write("build"))).toBe("place");
    expect(viaGlob(write("ls"))).toBeUndefined();
    // The table marks start_process as running commands even without an exec glob.
    const viaTable = containerTest("start_process", { command: "cp -r a repo/.git" }, false);
    expect(viaTable(write("repo/.git"))).toBe("place");
  });

  it("counts written and read paths, never URLs or the exec effect", () => {
    // A folder moved away is read as a whole; judgeBelow picks deny_read for the read effect.
    const exec = containerTest("run_it", { command: "mv a b" }, true);
    expect(exec({ operation: "read", kind: "path", at: "arguments.command", spelled: "b" })).toBe("place");
    expect(exec({ operation: "write", kind: "url", at: "arguments.command", spelled: "b" })).toBeUndefined();
    expect(exec({ operation: "exec", kind: "path", at: "arguments.command", spelled: "b" })).toBeUndefined();
    const move = containerTest("move_file", { source: "a", destination: "b" }, false);
    expect(move({ operation: "read", kind: "path", at: "arguments.source", spelled: "a" })).toBe("place");
    const named = containerTest("move_things", {}, false);
    expect(named({ operation: "read", kind: "path", at: "arguments.x", spelled: "x" })).toBe("place");
    expect(named({ operation: "exec", kind: "path", at: "arguments.x", spelled: "x" })).toBeUndefined();
    expect(named(write("x", "arguments.x"))).toBe("place");
  });

  it("reads a command given as a list of words, but not a list with other values", () => {
    const words = containerTest("run_it", { command: ["mv", "a", "dst"] }, true);
    expect(words(write("dst"))).toBe("place");
    const mixed = containerTest("run_it", { command: ["mv", 1, "dst"] }, true);
    expect(mixed(write("dst"))).toBeUndefined();
    const number = containerTest("run_it", { command: 5, other: "mv a dst" }, true);
    expect(number(write("dst"))).toBe("place");
  });

  it("does not read a declared non-command argument of an exec tool as a command", () => {
    // start_process's `shell` names the shell program (role exec), not a command line.
    const t = containerTest("start_process", { command: "ls", shell: "mv a dst" }, false);
    expect(t(write("dst", "arguments.shell"))).toBeUndefined();
    // Undeclared arguments of a table exec tool are still read as commands.
    const u = containerTest("start_process", { command: "ls", extra: "mv a dst" }, false);
    expect(u(write("dst", "arguments.extra"))).toBe("place");
  });

  it("for a table tool, only its declared container arguments count, at the top level", () => {
    const move = containerTest("move_file", { source: "a", destination: "b" }, false);
    expect(move(write("b", "arguments.destination"))).toBe("place");
    expect(move(write("b", "arguments.destination[0]"))).toBe("place");
    // A nested key that happens to be called `source` is not the move's source.
    expect(move(write("x", "arguments.opts.arguments.source"))).toBeUndefined();
    expect(move(write("x", "arguments.sourceMap"))).toBeUndefined();
    // Tools without containers: their writes are judged by the path alone.
    const w = containerTest("write_file", { path: "p" }, false);
    expect(w(write("p", "arguments.path"))).toBeUndefined();
  });
});
