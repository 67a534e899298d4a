// Exact-value tests for path canonicalisation and path patterns: boundaries and messages that
// the behavioural tables leave loose.
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY, lexicalPath, refuseText } from "../../../src/core/paths/canonical.js";
import {
  expandHomeAndVars,
  expandVars,
  fileUriToPath,
  isFileUri,
  lookupVar,
} from "../../../src/core/paths/expand.js";
import { foldName } from "../../../src/core/paths/fold.js";
import { joinPath, normaliseSegments, parsePath, win32Name } from "../../../src/core/paths/lexical.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { createPatternSet } from "../../../src/core/paths/pattern-set.js";
import { preparePath, splitPath } from "../../../src/core/paths/prepared.js";
import {
  compileSegment,
  hasWildcard,
  matchesAnyName,
  segmentMatches,
} from "../../../src/core/paths/segment-glob.js";

const LINUX: PlatformProfile = {
  platform: "linux",
  home: "/home/u",
  env: { HOME: "/home/u", X: "/x" },
  cwd: "/w/d",
};
const DARWIN: PlatformProfile = { platform: "darwin", home: "/Users/u", env: {}, cwd: "/w" };
const WIN: PlatformProfile = {
  platform: "win32",
  home: "C:\\Users\\u",
  env: { APPDATA: "C:\\A", Path: "p1", PATH: "p2", "=D:": "D:\\dd" },
  cwd: "C:\\w\\d",
};

const lex = (p: string, profile: PlatformProfile): string => {
  const r = lexicalPath(p, profile);
  return r.ok ? r.lexical : `ERR ${r.error}`;
};

function seg(s: string) {
  const c = compileSegment(s);
  if (!c.ok) throw new Error(c.expected);
  return c.matcher;
}

describe("segment globs", () => {
  it("compiles literals without a regex and wildcards without one literal", () => {
    expect(compileSegment("abc")).toEqual({ ok: true, matcher: { literal: "abc", re: undefined } });
    expect(seg("a*").literal).toBeUndefined();
    expect(hasWildcard("a[b")).toBe(true);
    expect(hasWildcard("a?")).toBe(true);
    expect(hasWildcard("a{b}")).toBe(false);
    expect(matchesAnyName("***")).toBe(true);
    expect(matchesAnyName("*a")).toBe(false);
    expect(matchesAnyName("")).toBe(false);
  });

  it("matches *, ? and classes inside one name, anchored at both ends", () => {
    const m = (g: string, n: string) => segmentMatches(seg(g), n);
    expect(m("*.sh", "x.sh")).toBe(true);
    expect(m("*.sh", ".sh")).toBe(true);
    expect(m("*.sh", "x.shx")).toBe(false);
    expect(m("*.sh", "xsh")).toBe(false);
    expect(m("a?c", "abc")).toBe(true);
    expect(m("a?c", "ac")).toBe(false);
    expect(m("a?c", "a\nc")).toBe(true);
    expect(m("?", "😀")).toBe(true);
    expect(m("x[ab]", "xb")).toBe(true);
    expect(m("x[ab]", "xc")).toBe(false);
    expect(m("x[!ab]", "xc")).toBe(true);
    expect(m("x[!ab]", "xa")).toBe(false);
    expect(m("x[^ab]", "xa")).toBe(false);
    expect(m("[a-c]", "b")).toBe(true);
    expect(m("[a-c]", "-")).toBe(false);
    expect(m("[-a]", "-")).toBe(true);
    expect(m("[a-]", "-")).toBe(true);
    expect(m("[]a]", "]")).toBe(true);
    expect(m("[!a]]", "b]")).toBe(true);
    expect(m("[!a]]", "a]")).toBe(false);
    expect(m("[\\]", "\\")).toBe(true);
    expect(m("(a|b)*", "(a|b)x")).toBe(true);
    expect(m("(a|b)*", "ax")).toBe(false);
    expect(m("a.b*", "axb")).toBe(false);
    expect(m("$x*", "$xy")).toBe(true);
    expect(m("[x]+*", "x+")).toBe(true);
    expect(m("[x]+*", "xx")).toBe(false);
    expect(m("[a^]", "^")).toBe(true);
  });

  it("names what is wrong with a class", () => {
    expect(compileSegment("a[bc")).toEqual({
      ok: false,
      expected: 'a closing ] for the [ in segment "a[bc"',
    });
    expect(compileSegment("a[]")).toEqual({ ok: false, expected: 'a closing ] for the [ in segment "a[]"' });
    expect(compileSegment("[!]")).toEqual({
      ok: false,
      expected: 'at least one character inside [] in segment "[!]"',
    });
    expect(compileSegment("[^]x]")).toEqual({
      ok: false,
      expected: 'at least one character inside [] in segment "[^]x]"',
    });
    expect(compileSegment("[z-a]")).toEqual({
      ok: false,
      expected: 'a valid character class in segment "[z-a]"',
    });
  });
});

describe("folding and preparing", () => {
  it("folds per platform", () => {
    expect(foldName("AbC", "linux")).toBe("AbC");
    expect(foldName("AbC", "win32")).toBe("abc");
    expect(foldName("Cafe\u0301", "win32")).toBe("cafe\u0301");
    expect(foldName("CAFE\u0301", "darwin")).toBe("caf\u00e9");
  });

  it("splits roots and names", () => {
    expect(splitPath("/A//b/", "linux")).toEqual({ root: "/", segments: ["A", "b"] });
    expect(splitPath("a/b", "linux")).toEqual({ root: "", segments: ["a", "b"] });
    expect(splitPath("/A/B", "darwin")).toEqual({ root: "/", segments: ["a", "b"] });
    expect(splitPath("C:\\X\\y", "win32")).toEqual({ root: "c:", segments: ["x", "y"] });
    expect(splitPath("\\\\Srv\\Sh\\X", "win32")).toEqual({ root: "\\\\srv\\sh", segments: ["x"] });
    expect(splitPath("//srv/sh", "win32")).toEqual({ root: "\\\\srv\\sh", segments: [] });
    expect(splitPath("\\\\srv", "win32")).toEqual({ root: "", segments: ["srv"] });
    expect(splitPath("x\\Y", "win32")).toEqual({ root: "", segments: ["x", "y"] });
    expect(splitPath("CD:\\x", "win32")).toEqual({ root: "", segments: ["cd:", "x"] });
  });

  it("memoises one path per platform without mixing platforms", () => {
    expect(preparePath("/A/b", "linux").segments).toEqual(["A", "b"]);
    expect(preparePath("/A/b", "darwin").segments).toEqual(["a", "b"]);
    expect(preparePath("/A/b", "linux").segments).toEqual(["A", "b"]);
    expect(preparePath("/C", "linux").segments).toEqual(["C"]);
  });
});

describe("lexical paths", () => {
  it("parses POSIX and win32 forms", () => {
    expect(parsePath("/a/b", "linux")).toEqual({
      ok: true,
      parsed: { kind: "absolute", root: "/", segments: ["", "a", "b"] },
    });
    expect(parsePath("a", "darwin")).toEqual({
      ok: true,
      parsed: { kind: "relative", root: "", segments: ["a"] },
    });
    expect(parsePath("c:/x", "win32")).toEqual({
      ok: true,
      parsed: { kind: "absolute", root: "C:", segments: ["", "x"] },
    });
    expect(parsePath("c:x", "win32")).toEqual({
      ok: true,
      parsed: { kind: "drive-relative", root: "C:", segments: ["x"] },
    });
    expect(parsePath("\\x", "win32")).toEqual({
      ok: true,
      parsed: { kind: "rooted", root: "", segments: ["", "x"] },
    });
    expect(parsePath("x/y", "win32")).toEqual({
      ok: true,
      parsed: { kind: "relative", root: "", segments: ["x", "y"] },
    });
    expect(parsePath("\\\\?\\C:\\x", "win32")).toMatchObject({ parsed: { kind: "absolute", root: "C:" } });
    expect(parsePath("\\??\\c:\\x", "win32")).toMatchObject({ parsed: { kind: "absolute", root: "C:" } });
    expect(parsePath("\\\\.\\UNC\\s\\h\\x", "win32")).toEqual({
      ok: true,
      parsed: { kind: "absolute", root: "\\\\s\\h", segments: ["x"] },
    });
    expect(parsePath("\\??\\unc\\s\\h", "win32")).toMatchObject({
      parsed: { root: "\\\\s\\h", segments: [] },
    });
    expect(parsePath("\\\\.\\pipe\\x", "win32")).toMatchObject({
      parsed: { root: "\\\\.\\pipe", segments: ["x"] },
    });
    expect(parsePath("\\\\?\\Volume{1}\\x", "win32")).toMatchObject({ parsed: { root: "\\\\?\\Volume{1}" } });
    for (const bad of ["\\\\s", "\\\\s\\", "\\\\\\h", "\\\\s\\.", "\\\\s\\.."])
      expect(parsePath(bad, "win32")).toEqual({
        ok: false,
        error: `expected a UNC path of the form \\\\server\\share\\…, got ${JSON.stringify(bad)}`,
      });
  });

  it("reduces win32 names to the file they open", () => {
    expect(win32Name("a.txt:s:$DATA")).toBe("a.txt");
    expect(win32Name("a. . ")).toBe("a");
    expect(win32Name("a.b")).toBe("a.b");
    expect(win32Name(".")).toBe(".");
    expect(win32Name("..")).toBe("..");
    expect(win32Name("..:x")).toBe("..");
    expect(win32Name("...")).toBeNull();
    expect(win32Name(" ")).toBeNull();
    expect(win32Name(". :x")).toBeNull();
    expect(win32Name("")).toBe("");
    expect(win32Name(":x")).toBe("");
  });

  it("resolves dot segments and refuses dot-only win32 names", () => {
    expect(normaliseSegments(["", "a", ".", "b", "..", "..", "..", "c", ""], "linux")).toEqual({
      ok: true,
      segments: ["c"],
    });
    expect(normaliseSegments(["a. "], "linux")).toEqual({ ok: true, segments: ["a. "] });
    expect(normaliseSegments(["a. "], "win32")).toEqual({ ok: true, segments: ["a"] });
    expect(normaliseSegments(["x", "..."], "win32")).toEqual({
      ok: false,
      error: 'expected a file name, got a name made only of dots and spaces ("...")',
    });
    expect(joinPath("/", [], "linux")).toBe("/");
    expect(joinPath("", ["a", "b"], "darwin")).toBe("/a/b");
    expect(joinPath("C:", [], "win32")).toBe("C:\\");
    expect(joinPath("C:", ["a", "b"], "win32")).toBe("C:\\a\\b");
    expect(joinPath("\\\\s\\h", [], "win32")).toBe("\\\\s\\h");
    expect(joinPath("\\\\s\\h", ["a"], "win32")).toBe("\\\\s\\h\\a");
  });
});

describe("expansion", () => {
  it("looks variables up per platform, falling back to the home folder", () => {
    expect(lookupVar("X", LINUX)).toBe("/x");
    expect(lookupVar("x", LINUX)).toBeUndefined();
    expect(lookupVar("HOME", { ...LINUX, env: {} })).toBe("/home/u");
    expect(lookupVar("USERPROFILE", LINUX)).toBeUndefined();
    expect(lookupVar("toString", LINUX)).toBeUndefined();
    expect(lookupVar("appdata", WIN)).toBe("C:\\A");
    expect(lookupVar("PATH", WIN)).toBe("p1");
    expect(lookupVar("userprofile", WIN)).toBe("C:\\Users\\u");
    expect(lookupVar("home", WIN)).toBe("C:\\Users\\u");
    expect(lookupVar("OTHER", WIN)).toBeUndefined();
  });

  it("expands each syntax once, and leaves unset names as written", () => {
    expect(expandVars("$X/a", LINUX)).toBe("/x/a");
    expect(expandVars("${X}a", LINUX)).toBe("/xa");
    expect(expandVars("$NOPE/a", LINUX)).toBe("$NOPE/a");
    expect(expandVars("%X%/a", LINUX)).toBe("%X%/a");
    expect(expandVars("plain", LINUX)).toBe("plain");
    expect(expandVars("$X$X", { ...LINUX, env: { X: "$X" } })).toBe("$X$X");
    expect(expandVars("%appdata%\\x", WIN)).toBe("C:\\A\\x");
    expect(expandVars("$env:APPDATA\\x", WIN)).toBe("C:\\A\\x");
    expect(expandVars("${APPDATA}x", WIN)).toBe("C:\\Ax");
    expect(expandVars("$APPDATA", WIN)).toBe("C:\\A");
    expect(expandVars("%NOPE%", WIN)).toBe("%NOPE%");
  });

  it("expands ~ only alone or before a separator", () => {
    expect(expandHomeAndVars("~", LINUX)).toBe("/home/u");
    expect(expandHomeAndVars("~/a/$X", LINUX)).toBe("/home/u/a//x");
    expect(expandHomeAndVars("~\\a", LINUX)).toBe("~\\a");
    expect(expandHomeAndVars("~\\a", WIN)).toBe("C:\\Users\\u\\a");
    expect(expandHomeAndVars("~bob/x", LINUX)).toBe("~bob/x");
    expect(expandHomeAndVars("~/x", { ...LINUX, home: "/h$X" })).toBe("/h$X/x");
    expect(expandHomeAndVars("a~/$X", LINUX)).toBe("a~//x");
  });

  it("turns file: URIs into paths and names what it refuses", () => {
    expect(isFileUri("FILE:/x")).toBe(true);
    expect(isFileUri("xfile:/x")).toBe(false);
    expect(fileUriToPath("file:///a%20b?q#f", LINUX)).toEqual({ ok: true, text: "/a b" });
    expect(fileUriToPath("file://localhost/a", LINUX)).toEqual({ ok: true, text: "/a" });
    expect(fileUriToPath("file://LOCALHOST/a", LINUX)).toEqual({ ok: true, text: "/a" });
    expect(fileUriToPath("file:/a#x", LINUX)).toEqual({ ok: true, text: "/a" });
    expect(fileUriToPath("file://localhost", LINUX)).toEqual({ ok: true, text: "/" });
    expect(fileUriToPath("file:a", LINUX)).toEqual({
      ok: false,
      error: 'expected an absolute file: URI (file:///…), got "file:a"',
    });
    expect(fileUriToPath("file:///%ff", LINUX)).toEqual({
      ok: false,
      error: 'expected valid UTF-8 percent-encoding in the file: URI, got "file:///%ff"',
    });
    expect(fileUriToPath("file://srv/x", LINUX)).toEqual({
      ok: false,
      error: 'expected a local file: URI (no host or localhost), got host "srv"',
    });
    expect(fileUriToPath("file:///C:/x", WIN)).toEqual({ ok: true, text: "C:/x" });
    expect(fileUriToPath("file:///x", WIN)).toEqual({ ok: true, text: "/x" });
    expect(fileUriToPath("file://srv/sh/x", WIN)).toEqual({ ok: true, text: "//srv/sh/x" });
    expect(fileUriToPath("file://s%41/sh", WIN)).toEqual({ ok: true, text: "//sA/sh" });
    expect(fileUriToPath("file://s%ff/sh", WIN)).toEqual({ ok: true, text: "//s%ff/sh" });
  });
});

describe("canonicalise", () => {
  it("refuses text that cannot be a path, with its reason", () => {
    expect(refuseText("a\u0000")).toBe("expected a path, got a string containing NUL");
    expect(refuseText("\ud800x")).toBe(
      "expected a path, got a string with a lone UTF-16 surrogate (invalid encoding)",
    );
    expect(refuseText("x\udc00")).toBe(
      "expected a path, got a string with a lone UTF-16 surrogate (invalid encoding)",
    );
    expect(refuseText("\ud83d\ude00")).toBeUndefined();
    expect(refuseText(" \t")).toBe("expected a path, got an empty or whitespace-only string");
    expect(refuseText("a")).toBeUndefined();
    expect(canonicalise("", LINUX, LEXICAL_ONLY)).toEqual({
      ok: false,
      spelled: "",
      error: "expected a path, got an empty or whitespace-only string",
    });
    expect(lex("file:///a%00b", LINUX)).toBe(
      "ERR expected a path, got a string containing NUL (after percent-decoding the file: URI)",
    );
    expect(lex("file:x", LINUX)).toBe('ERR expected an absolute file: URI (file:///…), got "file:x"');
    expect(lex("\\\\s", WIN)).toMatch(/^ERR expected a UNC path/);
    expect(lex("C:\\x\\...", WIN)).toMatch(/^ERR expected a file name/);
  });

  it("places relative, rooted and drive-relative paths", () => {
    expect(lex("  a/../b  ", LINUX)).toBe("/w/d/b");
    expect(lex("file:///a/./b", LINUX)).toBe("/a/b");
    expect(lex("$X/y", LINUX)).toBe("/x/y");
    expect(lex("x", { ...LINUX, cwd: "rel" })).toBe(
      'ERR expected the server\'s working directory to be absolute, got "rel"',
    );
    expect(lex("x", { ...WIN, cwd: "c:rel" })).toMatch(/^ERR expected the server's working directory/);
    expect(lex("x", WIN)).toBe("C:\\w\\d\\x");
    expect(lex("\\x", WIN)).toBe("C:\\x");
    expect(lex("\\x", { ...WIN, cwd: "\\\\s\\h\\d" })).toBe("\\\\s\\h\\x");
    expect(lex("c:x", WIN)).toBe("C:\\w\\d\\x");
    expect(lex("d:x", WIN)).toBe("D:\\dd\\x");
    expect(lex("e:x", WIN)).toBe("E:\\x");
    expect(lex("e:x", { ...WIN, env: { "=E:": "D:\\elsewhere" } })).toBe("E:\\x");
    expect(lex("e:x", { ...WIN, env: { "=E:": "E:rel" } })).toBe("E:\\x");
    expect(lex("/A\u0301", DARWIN)).toBe("/\u00c1");
    expect(lex("/A\u0301", LINUX)).toBe("/A\u0301");
  });

  it("asks the resolver, NFC-normalises its answer on darwin, and keeps the spelling", () => {
    const r = { realpath: (p: string) => (p === "/a" ? "/real/A\u0301" : undefined) };
    expect(canonicalise("/a", DARWIN, r)).toEqual({
      ok: true,
      spelled: "/a",
      lexical: "/a",
      resolved: "/real/\u00c1",
    });
    expect(canonicalise("/a", LINUX, r)).toEqual({
      ok: true,
      spelled: "/a",
      lexical: "/a",
      resolved: "/real/A\u0301",
    });
    expect(canonicalise(" /b", LINUX, r)).toEqual({
      ok: true,
      spelled: " /b",
      lexical: "/b",
      resolved: "/b",
    });
    expect(LEXICAL_ONLY.realpath("/x")).toBeUndefined();
  });
});

describe("path patterns", () => {
  const compile = (body: string, p: PlatformProfile = LINUX) => {
    const c = compilePathPattern(body, p);
    return c.ok ? c.pattern : c.expected;
  };
  const why = (body: string, p: PlatformProfile = LINUX): string => {
    const c = compilePathPattern(body, p);
    return c.ok ? "compiled" : c.expected.replace(/ \(allowed forms: .*\)$/, "");
  };

  it("names each refusal", () => {
    expect(why("  ")).toBe("a non-empty pattern");
    expect(why("/a\u0000")).toBe(
      "a pattern without NUL or broken UTF-16 (expected a path, got a string containing NUL)",
    );
    expect(why("/**")).toBe("a pattern that does not match every path");
    expect(why("C:\\**", WIN)).toBe("a pattern that does not match every path");
    expect(why("c:", WIN)).toBe("a pattern that does not match every path");
    expect(why("C:/", WIN)).toBe("a pattern that does not match every path");
    expect(why("**x")).toBe("**/ at the start of a name pattern");
    expect(why("**/**")).toBe("a pattern that does not match every path");
    expect(why("**/*/**")).toBe("a pattern that does not match every path");
    expect(why("**/a//b")).toBe("no empty segment or trailing separator in a name pattern");
    expect(why("**/a/")).toBe("no empty segment or trailing separator in a name pattern");
    expect(why("**/a/**/b")).toBe("** only at the start (**/…) or the end (…/**)");
    expect(why("**/a/..")).toBe("names without . or .. segments");
    expect(why("**/./a")).toBe("names without . or .. segments");
    expect(why("**/[a")).toBe('a closing ] for the [ in segment "[a"');
    expect(why("/a/")).toBe("no trailing separator (end a folder with /** to cover what is inside)");
    expect(why("C:\\a\\", WIN)).toBe("no trailing separator (end a folder with /** to cover what is inside)");
    expect(why("~bob/x")).toBe("~ or ~/… (other users' homes, ~user, are not supported)");
    expect(why("~\\x", LINUX)).toBe("~ or ~/… (other users' homes, ~user, are not supported)");
    expect(why("~\\x/**", WIN)).toBe("compiled");
    expect(why("/a/**/b")).toBe("** only at the start (**/…) or the end (…/**)");
    expect(why("/a/*.sh")).toBe("an anchored path without wildcards (use **/NAME for names anywhere)");
    expect(why("\\\\?\\C:\\x?", WIN)).toBe(
      "an anchored path without wildcards (use **/NAME for names anywhere)",
    );
    expect(why("\\\\?\\C:\\x", WIN)).toBe("compiled");
    expect(why("\\\\s", WIN)).toMatch(/^a path that can be canonicalised \(expected a UNC path/);
    expect(why("a/b")).toBe("an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere");
    expect(why("~/**")).toBe("compiled");
    expect(why("/")).toBe("a pattern that does not match every path");
    expect(why("~")).toBe("compiled");
    expect(why("/..")).toBe("a file, not a root folder");
    expect(why("\\\\s\\h\\**", WIN)).toBe("compiled");
    expect(why("\\\\s\\h", WIN)).toBe("a file, not a root folder");
  });

  it("carries the full list of forms in every refusal", () => {
    const c = compilePathPattern("a/b", LINUX);
    expect(!c.ok && c.expected).toBe(
      "an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere (allowed forms: an anchored folder ending in /** (~/.ssh/**), an anchored file without wildcards (~/.bashrc), or **/NAME, **/a/b, **/a/b/** with * ? […] inside one segment)",
    );
  });

  it("makes patterns with an unset leading variable inert, saying which", () => {
    const inert = (body: string, p: PlatformProfile = LINUX) => {
      const c = compilePathPattern(body, p);
      return c.ok ? (c.pattern as { inert?: string; form?: string }) : c.expected;
    };
    expect(inert("%APPDATA%/x/**")).toMatchObject({
      inert: "variable APPDATA is not set on this machine",
      form: "subtree",
    });
    expect(inert("$env:APPDATA/x")).toMatchObject({
      inert: "variable APPDATA is not set on this machine",
      form: "file",
    });
    expect(inert("$NOPE/x")).toMatchObject({ inert: "variable NOPE is not set on this machine" });
    expect(inert("${NOPE}/x")).toMatchObject({ inert: "variable NOPE is not set on this machine" });
    expect(inert("%NOPE%\\x", WIN)).toMatchObject({ inert: "variable NOPE is not set on this machine" });
    expect(inert("$X/y")).toMatchObject({ form: "file" });
    expect((inert("$X/y") as { inert?: string }).inert).toBeUndefined();
    const p = compilePathPattern("$NOPE/x/**", LINUX);
    expect(p.ok && p.pattern.test("/anything")).toBe(false);
    expect(p.ok && p.pattern.test("$NOPE/x")).toBe(false);
  });

  it("matches anchored files and subtrees by whole segments", () => {
    const t = (body: string, path: string, p: PlatformProfile = LINUX) => {
      const c = compilePathPattern(body, p);
      if (!c.ok) throw new Error(c.expected);
      return c.pattern.test(path);
    };
    expect(t("~/.ssh/**", "/home/u/.ssh")).toBe(true);
    expect(t("~/.ssh/**", "/home/u/.ssh/a/b")).toBe(true);
    expect(t("~/.ssh/**", "/home/u/.sshx")).toBe(false);
    expect(t("~/.ssh/**", "/home/u")).toBe(false);
    expect(t("~/.ssh/**", "/home/v/.ssh")).toBe(false);
    expect(t("~/.bashrc", "/home/u/.bashrc")).toBe(true);
    expect(t("~/.bashrc", "/home/u/.bashrc/x")).toBe(false);
    expect(t("~/.bashrc", "/home/u")).toBe(false);
    expect(t("~/.bashrc", "/home/x/.bashrc")).toBe(false);
    expect(t("~/.bashrc", "/x/u/.bashrc")).toBe(false);
    expect(t("/a/b", "a/b")).toBe(false);
    expect(t("C:\\A\\**", "c:\\a\\b", WIN)).toBe(true);
    expect(t("C:\\A\\**", "D:\\a\\b", WIN)).toBe(false);
    expect(t("/A/**", "/a", DARWIN)).toBe(true);
    expect(t("/A/**", "/a", LINUX)).toBe(false);
  });

  it("matches name patterns at the end, and name subtrees anywhere", () => {
    const t = (body: string, path: string, p: PlatformProfile = LINUX) => {
      const c = compilePathPattern(body, p);
      if (!c.ok) throw new Error(c.expected);
      return c.pattern.test(path);
    };
    expect(t("**/.git/config", "/r/.git/config")).toBe(true);
    expect(t("**/.git/config", "/r/.gitx/config")).toBe(false);
    expect(t("**/.git/config", "/r/.git/configx")).toBe(false);
    expect(t("**/.git/config", "/config")).toBe(false);
    expect(t("**/.git/config", "/.git/config")).toBe(true);
    expect(t("**/.env", "/x/.env/y")).toBe(false);
    expect(t("**/a/b/**", "/a/b")).toBe(true);
    expect(t("**/a/b/**", "/x/a/b/c")).toBe(true);
    expect(t("**/a/b/**", "/x/a/c/b")).toBe(false);
    expect(t("**/a/b/**", "/x/b/a")).toBe(false);
    expect(t("**/a/b/**", "/a")).toBe(false);
    expect(t("**/*.pem/**", "/k/x.pem/y")).toBe(true);
    expect(t("**\\.ENV", "c:\\x\\.env", WIN)).toBe(true);
    const name = compilePathPattern("**/x/.env", LINUX);
    expect(name.ok && name.pattern).toMatchObject({ form: "name", lastLiteral: ".env" });
    const star = compilePathPattern("**/*.env", LINUX);
    expect(star.ok && "lastLiteral" in star.pattern).toBe(false);
    const sub = compilePathPattern("**/.GIT/hooks/**", WIN);
    expect(sub.ok && sub.pattern).toMatchObject({ form: "name-subtree", firstLiteral: ".git" });
    const subStar = compilePathPattern("**/*.git/**", LINUX);
    expect(subStar.ok && "firstLiteral" in subStar.pattern).toBe(false);
  });

  it("follows the anchor's real path only when a resolver is given and it differs", () => {
    const c = compilePathPattern("~/.ssh/**", LINUX);
    if (!c.ok) throw new Error(c.expected);
    const calls: string[] = [];
    const moved = { realpath: (p: string) => (calls.push(p), "/vault/ssh") };
    expect(c.pattern.test("/vault/ssh/id")).toBe(false);
    expect(c.pattern.test("/vault/ssh/id", moved)).toBe(true);
    expect(calls).toEqual(["/home/u/.ssh"]);
    expect(c.pattern.test("/vault/other", moved)).toBe(false);
    expect(c.pattern.test("/vault/ssh", { realpath: () => "/home/u/.ssh" })).toBe(false);
    expect(c.pattern.test("/vault/ssh", LEXICAL_ONLY)).toBe(false);
    const f = compilePathPattern("/a/F", DARWIN);
    if (!f.ok) throw new Error(f.expected);
    expect(f.pattern.test("/real/\u00c1", { realpath: () => "/real/A\u0301" })).toBe(true);
    expect(f.pattern.test("/real/\u00c1/x", { realpath: () => "/real/A\u0301" })).toBe(false);
    expect(f.pattern.test("/other/b", { realpath: () => "/other/B" })).toBe(true);
  });

  it("finds the first pattern in list order through the name index", () => {
    const pats = ["**/x/**", "/a/**", "**/.env", "**/*.env", "**/.env", "%NOPE%/**"].map((b) => {
      const c = compilePathPattern(b, LINUX);
      if (!c.ok) throw new Error(c.expected);
      return c.pattern;
    });
    const set = createPatternSet(pats, "linux");
    expect(set.patterns).toBe(pats);
    expect(set.first("/a/.env")?.body).toBe("/a/**");
    expect(set.first("/b/.env")?.body).toBe("**/.env");
    expect(set.first("/x/x/.env")?.body).toBe("**/x/**");
    expect(set.first("/b/c.env")?.body).toBe("**/*.env");
    expect(set.first("/b/c")).toBeUndefined();
    expect(set.first("/")).toBeUndefined();
    const later = createPatternSet([pats[3]!, pats[2]!], "linux");
    expect(later.first("/q/.env")?.body).toBe("**/*.env");
    const onlySub = createPatternSet([pats[0]!], "linux");
    expect(onlySub.first("/x")?.body).toBe("**/x/**");
    expect(onlySub.first("/y")).toBeUndefined();
    expect(compile("**/.env")).not.toBeTypeOf("string");
  });
});
