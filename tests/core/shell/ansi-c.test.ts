import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ansiC } from "../../../src/core/shell/ansi-c.js";

// Bash's `$'…'` (src/core/shell/ansi-c.ts): each case pins the whole decoded text and where the
// reading stopped, and bash itself is the oracle where it runs.

const hasBash = spawnSync("bash", ["--version"]).status === 0;
/** What bash makes of `$'body'`, as the bytes printf writes (latin1: one char per byte). */
const bash = (body: string) =>
  spawnSync("bash", ["--norc", "--noprofile", "-c", `printf '%s' $'${body}'`], { encoding: "latin1" }).stdout;
/** The body of `$'body'` decoded, read from just after the opening quote. */
const decode = (body: string) => ansiC(`$'${body}'`, 2);

const CASES: [string, string][] = [
  ["plain text", "plain text"],
  ["\\a\\b\\e\\E\\f\\n\\r\\t\\v", "\x07\b\x1b\x1b\f\n\r\t\v"],
  ["\\\\|\\'|\\\"|\\?", "\\|'|\"|?"],
  ["\\q\\xZ\\uZ\\UZ", "\\q\\xZ\\uZ\\UZ"],
  ["\\cA\\ca\\c[", "\x01\x01\x1b"],
  ["\\c?\\c_", "\x7f\x1f"],
  ["\\101\\1010\\7x\\400z", "AA0\x07x"],
  ["\\x41\\x414\\x4g", "AA4\x04g"],
  ["a\\0b\\nc", "a"],
  ["a\\x00\\x41\\n\\q\\xZ\\cA", "a"],
];

describe("bash's ANSI-C quoting", () => {
  it.each(CASES)("$'%s' decodes in full, up to its closing quote", (body, decoded) => {
    expect(decode(body)).toEqual({ decoded, stop: body.length + 2 });
  });

  it.runIf(hasBash)("as bash decodes it", () => {
    for (const [body, decoded] of CASES) expect([body, bash(body)]).toEqual([body, decoded]);
  });

  it("ends a NUL written any way, and adds nothing after it", () => {
    for (const nul of ["\\0", "\\000", "\\x0", "\\u0000", "\\U00000000", "\\c@", "\\400"])
      expect(decode(`a${nul}z\\a\\u41\\c-\\uZ\\UZ\\xZ\\q\\`).decoded).toBe("a");
  });

  it("reads \\u and \\U as code points, and leaves out what is no character", () => {
    expect(decode("\\u00e9\\U0001F600\\U0010FFFF|").decoded).toBe("é😀\u{10ffff}|");
    expect(decode("\\ud7ff\\ue000").decoded).toBe("\ud7ff\ue000");
    expect(decode("[\\ud800\\udbff\\udc00\\udfff]").decoded).toBe("[]");
    expect(decode("[\\U00110000\\UFFFFFFFF]").decoded).toBe("[]");
    expect(decode("\\u12345").decoded).toBe("\u12345");
    expect(decode("\\U0000004142").decoded).toBe("A42");
  });

  it("stops at the end of a text with no closing quote", () => {
    expect(ansiC("\\x4", 0)).toEqual({ decoded: "\x04", stop: 3 });
    expect(ansiC("\\x41", 0)).toEqual({ decoded: "A", stop: 4 });
    expect(ansiC("\\u4", 0)).toEqual({ decoded: "\x04", stop: 3 });
    expect(ansiC("\\07", 0)).toEqual({ decoded: "\x07", stop: 3 });
    expect(ansiC("a\\", 0)).toEqual({ decoded: "a\\", stop: 2 });
    expect(ansiC("a\\c", 0)).toEqual({ decoded: "a\\c", stop: 3 });
    expect(ansiC("\\cA", 0)).toEqual({ decoded: "\x01", stop: 3 });
    expect(ansiC("ab", 1)).toEqual({ decoded: "b", stop: 2 });
  });
});
