import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";
import { DARWIN, fakeResolver, LINUX, shortNameResolver, WIN32 } from "../../helpers/profiles.js";

function lex(input: string, profile: PlatformProfile): string {
  const c = canonicalise(input, profile, LEXICAL_ONLY);
  if (!c.ok) throw new Error(`${JSON.stringify(input)} refused: ${c.error}`);
  return c.lexical;
}

describe("canonicalise on linux", () => {
  const table: [string, string][] = [
    ["/home/u/.ssh/id_rsa", "/home/u/.ssh/id_rsa"],
    ["~", "/home/u"],
    ["~/.ssh/id_rsa", "/home/u/.ssh/id_rsa"],
    ["$HOME/.ssh/id_rsa", "/home/u/.ssh/id_rsa"],
    ["${HOME}/.ssh/id_rsa", "/home/u/.ssh/id_rsa"],
    ["$XDG_CONFIG_HOME/git", "/home/u/.config/git"],
    ["$NOPE/.ssh", "/srv/project/$NOPE/.ssh"],
    ["${NOPE}/.ssh", "/srv/project/${NOPE}/.ssh"],
    ["$LOOP/x", "/srv/project/$HOME/x"], // no recursive expansion
    ["%HOME%/x", "/srv/project/%HOME%/x"], // %VAR% is a win32 spelling
    ["~\\x", "/srv/project/~\\x"], // ~\ is a win32 spelling
    ["~root/.ssh", "/srv/project/~root/.ssh"],
    ["src/a.ts", "/srv/project/src/a.ts"],
    ["./src/../.env", "/srv/project/.env"],
    ["//etc///passwd", "/etc/passwd"],
    ["/../../etc/./passwd", "/etc/passwd"],
    ["../../../../x", "/x"],
    ["/", "/"],
    ["  /etc/passwd \n", "/etc/passwd"],
    ["file:///home/u/.ssh/id%5Frsa", "/home/u/.ssh/id_rsa"],
    ["FILE://localhost/home/u/a%20b", "/home/u/a b"],
    ["file:/etc/passwd", "/etc/passwd"],
    ["file:///home/u/%2e%2e/u/.ssh", "/home/u/.ssh"],
    ["/home/u/%2e%2e/x", "/home/u/%2e%2e/x"], // percent-decoding only for URIs
    ["/home/u/.env:secret", "/home/u/.env:secret"], // streams are a win32 thing
    ["/home/u/.env.", "/home/u/.env."],
    ["/home/U/.SSH", "/home/U/.SSH"],
  ];
  it.each(table)("%j → %j", (input, expected) => expect(lex(input, LINUX)).toBe(expected));

  it.each([
    ["", "empty"],
    ["   \t", "whitespace"],
    ["/etc/pass\u0000wd", "NUL"],
    ["/tmp/\uD800x", "surrogate"],
    ["/tmp/\uDC00", "surrogate"],
    ["file:///tmp/%00x", "NUL"],
    ["file:///tmp/%ff", "UTF-8"],
    ["file://server/share/x", "local"],
    ["file:relative/x", "absolute"],
  ])("refuses %j (%s)", (input, word) => {
    const c = canonicalise(input, LINUX, LEXICAL_ONLY);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toContain(word);
  });

  it("accepts a well-formed surrogate pair", () => {
    expect(lex("/tmp/\uD83D\uDE00", LINUX)).toBe("/tmp/\uD83D\uDE00");
  });

  it("resolves through the resolver and keeps lexical as spelled", () => {
    const r = fakeResolver({ "/home/u/.ssh": "/data/keys" });
    const c = canonicalise("~/.ssh/id_rsa", LINUX, r);
    expect(c).toEqual({
      ok: true,
      spelled: "~/.ssh/id_rsa",
      lexical: "/home/u/.ssh/id_rsa",
      resolved: "/data/keys/id_rsa",
    });
    expect(r.calls).toEqual(["/home/u/.ssh/id_rsa"]);
  });

  it("falls back to lexical when the resolver cannot say", () => {
    const c = canonicalise("/a/b", LINUX, { realpath: () => undefined });
    expect(c.ok && c.resolved).toBe("/a/b");
  });

  it("does not expand variables inside the home folder's own name", () => {
    const odd = { ...LINUX, home: "/home/$HOME" };
    expect(lex("~/x", odd)).toBe("/home/$HOME/x");
    expect(lex("~/$XDG_CONFIG_HOME", odd)).toBe("/home/$HOME/home/u/.config");
  });

  it("refuses a relative path when the cwd is not absolute", () => {
    const c = canonicalise("x", { ...LINUX, cwd: "rel" }, LEXICAL_ONLY);
    expect(c.ok).toBe(false);
  });
});

describe("canonicalise on darwin", () => {
  it.each([
    ["~/Documents/caf\u0065\u0301", "/Users/u/Documents/caf\u00e9"], // NFD → NFC
    ["$HOME/.ssh", "/Users/u/.ssh"],
    ["../../.ssh/id_rsa", "/Users/u/.ssh/id_rsa"],
    ["/Users/U/.SSH", "/Users/U/.SSH"], // spelling kept; matching folds
  ])("%j → %j", (input, expected) => expect(lex(input, DARWIN)).toBe(expected));

  it("normalises what the resolver returns", () => {
    const c = canonicalise("/x", DARWIN, { realpath: () => "/x/caf\u0065\u0301" });
    expect(c.ok && c.resolved).toBe("/x/caf\u00e9");
  });
});

describe("canonicalise on win32", () => {
  const table: [string, string][] = [
    ["C:\\Users\\u\\.ssh\\id_rsa", "C:\\Users\\u\\.ssh\\id_rsa"],
    ["c:/users/u/.ssh/id_rsa", "C:\\users\\u\\.ssh\\id_rsa"],
    ["~\\.ssh\\id_rsa", "C:\\Users\\u\\.ssh\\id_rsa"],
    ["~/.ssh/id_rsa", "C:\\Users\\u\\.ssh\\id_rsa"],
    ["%USERPROFILE%\\.ssh", "C:\\Users\\u\\.ssh"],
    ["%userprofile%\\.ssh", "C:\\Users\\u\\.ssh"],
    ["%AppData%\\Claude\\x.json", "C:\\Users\\u\\AppData\\Roaming\\Claude\\x.json"],
    ["$env:USERPROFILE\\.ssh", "C:\\Users\\u\\.ssh"],
    ["$HOME\\.ssh", "C:\\Users\\u\\.ssh"],
    ["%NOPE%\\.ssh", "C:\\src\\app\\%NOPE%\\.ssh"],
    ["%LOOP%\\x", "C:\\src\\app\\%USERPROFILE%\\x"],
    ["\\\\?\\C:\\Users\\u\\.ssh", "C:\\Users\\u\\.ssh"],
    ["//?/C:/Users/u/.ssh", "C:\\Users\\u\\.ssh"],
    ["\\\\.\\C:\\Users\\u\\.ssh", "C:\\Users\\u\\.ssh"],
    ["//./c:/Users/u/.ssh", "C:\\Users\\u\\.ssh"],
    ["\\??\\C:\\x", "C:\\x"],
    ["\\\\?\\UNC\\srv\\share\\x", "\\\\srv\\share\\x"],
    ["//?/UNC/srv/share/x", "\\\\srv\\share\\x"],
    ["\\\\srv\\share\\a\\..\\..\\..\\x", "\\\\srv\\share\\x"],
    ["\\\\srv\\share", "\\\\srv\\share"],
    ["C:\\x\\.env:secret", "C:\\x\\.env"],
    ["C:\\x\\.env::$DATA", "C:\\x\\.env"],
    ["C:\\x\\.env:secret:$DATA", "C:\\x\\.env"],
    ["x\\.env:secret", "C:\\src\\app\\x\\.env"],
    ["\\\\?\\C:\\x\\.env::$DATA", "C:\\x\\.env"],
    ["C:\\x\\.env.", "C:\\x\\.env"],
    ["C:\\x\\.env ", "C:\\x\\.env"],
    ["C:\\x\\.env. . ", "C:\\x\\.env"],
    ["C:\\x.\\y", "C:\\x\\y"],
    ["..\\..\\..\\..\\Windows", "C:\\Windows"],
    ["\\Windows\\System32", "C:\\Windows\\System32"],
    ["C:rel\\x", "C:\\src\\app\\rel\\x"],
    ["D:rel", "D:\\work\\rel"],
    ["E:rel", "E:\\rel"],
    ["C:", "C:\\src\\app"],
    ["C:\\", "C:\\"],
    ["file:///C:/Users/u/.ssh/id%5Frsa", "C:\\Users\\u\\.ssh\\id_rsa"],
    ["file://srv/share/a%20b", "\\\\srv\\share\\a b"],
    ["file://localhost/c:/x", "C:\\x"],
  ];
  it.each(table)("%j → %j", (input, expected) => expect(lex(input, WIN32)).toBe(expected));

  it.each(["C:\\x\\...\\y", "C:\\x\\. .", "\\\\srv", "\\\\?\\UNC\\srv"])("refuses %j", (input) => {
    expect(canonicalise(input, WIN32, LEXICAL_ONLY).ok).toBe(false);
  });

  it("expands 8.3 short names through the resolver", () => {
    const r = shortNameResolver({ "PROGRA~1": "Program Files", "USERS~1": "Users" });
    const c = canonicalise("c:\\progra~1\\App\\x.exe", WIN32, r);
    expect(c.ok && c.resolved).toBe("C:\\Program Files\\App\\x.exe");
    expect(c.ok && c.lexical).toBe("C:\\progra~1\\App\\x.exe");
  });
});
