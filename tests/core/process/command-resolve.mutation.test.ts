// Which files the command resolver looks at, in which order, and what it says when it finds none.
// The probe list is the behaviour a user sees: a program planted in a folder that is not on the
// search path must never be started.
import { describe, expect, it } from "vitest";
import { quoteForCmd, resolveCommand, type ResolveInput } from "../../../src/core/process/command-resolve.js";

function probe(input: Omit<ResolveInput, "isFile">, exists: (p: string) => boolean = () => false) {
  const looked: string[] = [];
  const r = resolveCommand({
    ...input,
    isFile: (p) => {
      looked.push(p);
      return exists(p);
    },
  });
  return { r, looked };
}

const POSIX = { platform: "linux" as const, args: ["a"], cwd: "/work" };
const WIN = { platform: "win32" as const, args: [], cwd: "C:\\work" };

describe("posix", () => {
  it("refuses an empty command, saying what was expected", () => {
    const { r, looked } = probe({ ...POSIX, command: "", path: "/bin" });
    expect(r).toEqual({ ok: false, reason: "expected a server command after --, got an empty string" });
    expect(looked).toEqual([]);
    expect(probe({ ...WIN, command: "", path: "C:\\bin" }).r).toEqual({
      ok: false,
      reason: "expected a server command after --, got an empty string",
    });
  });

  it("with no PATH looks only in the current folder", () => {
    const { r, looked } = probe({ ...POSIX, command: "srv", path: undefined }, (p) => p === "/work/srv");
    expect(looked).toEqual(["/work/srv"]);
    expect(r).toEqual({
      ok: true,
      file: "/work/srv",
      args: ["a"],
      windowsVerbatimArguments: false,
      resolvedPath: "/work/srv",
    });
  });

  it("searches each PATH entry in order, an empty one meaning the current folder", () => {
    const { looked } = probe({ ...POSIX, command: "srv", path: "/a::rel" });
    expect(looked).toEqual(["/a/srv", "/work/srv", "/work/rel/srv"]);
  });

  it("names the file it looked at for a command with a folder", () => {
    const { r, looked } = probe({ ...POSIX, command: "bin/srv", path: "/a" });
    expect(looked).toEqual(["/work/bin/srv"]);
    expect(r).toEqual({ ok: false, reason: "bin/srv: no such executable file (looked at /work/bin/srv)" });
  });
});

describe("win32", () => {
  it("with no PATH looks only in the current folder, with each default extension", () => {
    const { r, looked } = probe({ ...WIN, command: "srv", path: undefined });
    expect(looked).toEqual([
      "C:\\work\\srv.com",
      "C:\\work\\srv.exe",
      "C:\\work\\srv.bat",
      "C:\\work\\srv.cmd",
    ]);
    expect(r).toEqual({
      ok: false,
      reason: "srv: command not found on PATH (tried extensions .com .exe .bat .cmd)",
    });
  });

  it("reads PATHEXT loosely: spaces, case, and entries that are not extensions", () => {
    const { r, looked } = probe({ ...WIN, command: "srv", path: "", pathext: " .EXE ;CMD; .Bat" });
    expect(looked).toEqual(["C:\\work\\srv.exe", "C:\\work\\srv.bat"]);
    expect(r).toMatchObject({ reason: "srv: command not found on PATH (tried extensions .exe .bat)" });
  });

  it("unquotes PATH entries and skips empty ones", () => {
    const { looked } = probe({ ...WIN, command: "srv", path: ' "C:\\P F" ;;C:\\t', pathext: ".EXE" });
    expect(looked).toEqual(["C:\\work\\srv.exe", "C:\\P F\\srv.exe", "C:\\t\\srv.exe"]);
  });

  it("tries a name as spelled only when it already carries a runnable extension", () => {
    expect(probe({ ...WIN, command: "srv", path: "", pathext: ".EXE" }).looked).toEqual([
      "C:\\work\\srv.exe",
    ]);
    expect(probe({ ...WIN, command: "srv.js", path: "", pathext: ".EXE" }).looked).toEqual([
      "C:\\work\\srv.js.exe",
    ]);
    expect(probe({ ...WIN, command: "srv.EXE", path: "", pathext: ".EXE" }).looked).toEqual([
      "C:\\work\\srv.EXE",
      "C:\\work\\srv.EXE.exe",
    ]);
    // A bare file without an extension is never started, even when it exists.
    const { r } = probe(
      { ...WIN, command: "srv", path: "C:\\t", pathext: ".EXE" },
      (p) => p === "C:\\work\\srv" || p === "C:\\t\\srv.exe",
    );
    expect(r).toMatchObject({ ok: true, file: "C:\\t\\srv.exe" });
  });

  it("runs a batch file through the given shell", () => {
    const { r } = probe({ ...WIN, command: "x", path: "", comspec: "D:\\cmd.exe", args: ["y"] }, (p) =>
      p.endsWith("x.bat"),
    );
    expect(r).toEqual({
      ok: true,
      file: "D:\\cmd.exe",
      args: ["/d", "/s", "/c", '"C:\\work\\x.bat ^"y^""'],
      windowsVerbatimArguments: true,
      resolvedPath: "C:\\work\\x.bat",
    });
  });
});

describe("quoting for cmd.exe", () => {
  it("doubles only the backslashes before a quote, and adds one to escape it", () => {
    // a\\"b: two backslashes then a quote become five backslashes and the quote.
    expect(quoteForCmd('a\\\\"b', false)).toBe(`^"a${"\\".repeat(5)}^"b^"`);
    expect(quoteForCmd('"', false)).toBe('^"\\^"^"');
    expect(quoteForCmd("a\\b", false)).toBe('^"a\\b^"');
    expect(quoteForCmd("a\\", false)).toBe('^"a\\\\^"');
  });
});
