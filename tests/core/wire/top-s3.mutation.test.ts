// Round 3 of the top-level survivors: loose spellings of prompts/get in text that did not parse,
// "method" strings inside lists (never a key), Windows PATH entries quoted only in part, and npm
// shims recognised only by their last path segment.
import { describe, expect, it } from "vitest";
import { resolveCommand, type ResolveInput } from "../../../src/core/process/command-resolve.js";
import { looksLikeJudgedCall, methodSpellings } from "../../../src/core/wire/judged-call-text.js";

describe("looksLikeJudgedCall", () => {
  it("sees prompts/get through an escaped slash, as it does tools/call and resources/read", () => {
    // `\/` is two characters of text between the words: still a spelling of the same method.
    expect(looksLikeJudgedCall('{"method":"prompts\\/get"')).toBe(true);
    expect(looksLikeJudgedCall('{"method":"prompts\\u002fget"')).toBe(true);
    expect(looksLikeJudgedCall('{"method":"prompts1234567get"')).toBe(false);
  });
});

describe("methodSpellings", () => {
  it("never reads a string inside a list as a key, even after a comma", () => {
    // A list member that is itself a list: its "method" string is a value, so what follows it
    // (a number, an object) is no method spelling.
    expect(methodSpellings('[["x","method",1]]')).toEqual([]);
    expect(methodSpellings('["x","method",{"a":1}]')).toEqual([]);
    expect(methodSpellings('[{"method":"a"},["y","method",2]]')).toEqual(["a"]);
  });
});

function win(input: Partial<ResolveInput> & { command: string }, files: string[]) {
  const looked: string[] = [];
  const r = resolveCommand({
    platform: "win32",
    args: [],
    path: undefined,
    cwd: "C:\\work",
    ...input,
    isFile: (p) => {
      looked.push(p);
      return files.includes(p);
    },
  });
  return { r, looked };
}

describe("Windows PATH entries", () => {
  it("strips quotes only when they enclose the whole entry", () => {
    // cmd.exe's quoting of an entry is around all of it; quotes elsewhere are part of the name.
    const { r, looked } = win({ command: "srv", path: 'C:\\a"b";"C:\\c"\\d;"C:\\q"', pathext: ".EXE" }, [
      "C:\\ab\\srv.exe",
      "C:\\c\\d\\srv.exe",
    ]);
    expect(looked[0]).toBe("C:\\work\\srv.exe");
    expect(looked[1]).toBe('C:\\a"b"\\srv.exe');
    expect(looked[2]).toMatch(/"C:\\c"\\d\\srv\.exe$/);
    expect(looked[3]).toBe("C:\\q\\srv.exe");
    expect(looked).toHaveLength(4);
    expect(r.ok).toBe(false);
  });
});

describe("npm shims", () => {
  it("doubles carets only for a .cmd file directly in node_modules/.bin", () => {
    const shim = "C:\\work\\node_modules\\.bin\\srv.cmd";
    const notShim = "C:\\work\\node_modules\\.bin\\srv.cmd.bat";
    const run = (file: string) => {
      const { r } = win({ command: file, args: ["a&b"], pathext: ".BAT;.CMD" }, [file]);
      if (!r.ok) throw new Error(r.reason);
      return r.args[3];
    };
    // Quoted once for cmd.exe: one caret before each metacharacter; a shim re-parses, so three.
    expect(run(shim)).toContain("^^^&");
    expect(run(notShim)).toContain(' ^"a^&b^"');
    expect(run(notShim)).not.toContain("^^");
  });
});
