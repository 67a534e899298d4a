import { describe, expect, it } from "vitest";
import { quoteForCmd, resolveCommand, type ResolveInput } from "../../../src/core/process/command-resolve.js";

function win(files: string[], command: string, args: string[] = [], extra: Partial<ResolveInput> = {}) {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return resolveCommand({
    platform: "win32",
    command,
    args,
    path: 'C:\\Windows\\system32;"C:\\Program Files\\nodejs";C:\\tools',
    pathext: ".COM;.EXE;.BAT;.CMD",
    cwd: "C:\\work",
    isFile: (p) => set.has(p.toLowerCase()),
    ...extra,
  });
}

describe("resolveCommand on win32", () => {
  it("a relative PATH entry is looked up under the server's folder", () => {
    const r = win(["C:\\work\\bin\\tool.exe"], "tool", [], { path: "bin" });
    expect(r).toMatchObject({ ok: true, file: "C:\\work\\bin\\tool.exe" });
  });

  it("runs npx.cmd through cmd.exe with verbatim arguments", () => {
    const r = win(["C:\\Program Files\\nodejs\\npx.cmd"], "npx", [
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "C:\\Users\\me\\My Docs",
    ]);
    expect(r).toMatchObject({
      ok: true,
      file: "cmd.exe",
      windowsVerbatimArguments: true,
      resolvedPath: "C:\\Program Files\\nodejs\\npx.cmd",
    });
    if (!r.ok) return;
    expect(r.args.slice(0, 3)).toEqual(["/d", "/s", "/c"]);
    expect(r.args[3]).toBe(
      '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@modelcontextprotocol/server-filesystem^" ^"C:\\Users\\me\\My^ Docs^""',
    );
  });

  it("prefers .exe over .cmd by PATHEXT order and runs it directly", () => {
    const r = win(["C:\\tools\\node.exe", "C:\\tools\\node.cmd"], "node", ["a b"]);
    expect(r).toEqual({
      ok: true,
      file: "C:\\tools\\node.exe",
      args: ["a b"],
      windowsVerbatimArguments: false,
      resolvedPath: "C:\\tools\\node.exe",
    });
  });

  it("looks in the current folder first, and honours an explicit extension", () => {
    expect(win(["C:\\work\\srv.bat", "C:\\tools\\srv.exe"], "srv")).toMatchObject({
      ok: true,
      file: "cmd.exe",
      resolvedPath: "C:\\work\\srv.bat",
    });
    expect(win(["C:\\tools\\srv.cmd"], "srv.cmd")).toMatchObject({
      ok: true,
      resolvedPath: "C:\\tools\\srv.cmd",
    });
  });

  it("resolves a relative path with a folder against cwd only", () => {
    expect(win(["C:\\work\\bin\\s.exe"], ".\\bin\\s")).toMatchObject({
      ok: true,
      file: "C:\\work\\bin\\s.exe",
    });
    expect(win(["C:\\tools\\s.exe"], ".\\bin\\s")).toMatchObject({ ok: false });
  });

  it("uses ComSpec when given", () => {
    expect(win(["C:\\tools\\x.cmd"], "x", [], { comspec: "C:\\Windows\\system32\\cmd.exe" })).toMatchObject({
      file: "C:\\Windows\\system32\\cmd.exe",
    });
  });

  it("says what it could not find", () => {
    const r = win([], "nope");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/nope: command not found on PATH/);
  });
});

describe("quoteForCmd", () => {
  it("escapes quotes, backslashes before quotes and cmd metacharacters", () => {
    expect(quoteForCmd('say "hi"', false)).toBe('^"say^ \\^"hi\\^"^"');
    expect(quoteForCmd("C:\\dir\\", false)).toBe('^"C:\\dir\\\\^"');
    expect(quoteForCmd("a&b|c>d%PATH%!x!", false)).toBe('^"a^&b^|c^>d^%PATH^%^!x^!^"');
    expect(quoteForCmd("", false)).toBe('^"^"');
  });

  it("doubles the carets for npm shims in node_modules/.bin", () => {
    const r = win(["C:\\work\\node_modules\\.bin\\srv.cmd"], "node_modules\\.bin\\srv", ["a&b"]);
    expect(r.ok && r.args[3]).toBe('"C:\\work\\node_modules\\.bin\\srv.cmd ^^^"a^^^&b^^^""');
  });
});

describe("resolveCommand on POSIX", () => {
  const files = new Set(["/usr/bin/node", "/home/me/bin/srv", "/work/local/srv"]);
  const base = {
    platform: "linux" as const,
    args: ["x"],
    path: "/home/me/bin:/usr/bin",
    cwd: "/work",
    isFile: (p: string) => files.has(p),
  };

  it("searches PATH in order", () => {
    expect(resolveCommand({ ...base, command: "node" })).toMatchObject({
      ok: true,
      file: "/usr/bin/node",
      args: ["x"],
      windowsVerbatimArguments: false,
    });
    expect(resolveCommand({ ...base, command: "srv" })).toMatchObject({ file: "/home/me/bin/srv" });
  });

  it("takes a command with a slash relative to cwd, without PATH", () => {
    expect(resolveCommand({ ...base, command: "./local/srv" })).toMatchObject({
      ok: true,
      file: "/work/local/srv",
    });
    expect(resolveCommand({ ...base, command: "local/missing" }).ok).toBe(false);
  });

  it("treats an empty PATH entry as the current folder", () => {
    expect(
      resolveCommand({ ...base, path: ":/usr/bin", command: "x", isFile: (p) => p === "/work/x" }),
    ).toMatchObject({ file: "/work/x" });
  });

  it("fails on an empty command or PATH miss", () => {
    expect(resolveCommand({ ...base, command: "" }).ok).toBe(false);
    expect(resolveCommand({ ...base, command: "nothere" })).toMatchObject({
      ok: false,
      reason: "nothere: command not found on PATH",
    });
  });
});
