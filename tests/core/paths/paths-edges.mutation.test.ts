// Edges of path spelling that the behavioural tables do not reach: which platform reads `\` and
// `:` specially, where a namespace prefix counts, and what a set variable overrides.
import { describe, expect, it } from "vitest";
import type { PathResolver, PlatformProfile } from "../../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY, lexicalPath } from "../../../src/core/paths/canonical.js";
import { expandHomeAndVars, fileUriToPath, lookupVar } from "../../../src/core/paths/expand.js";
import { joinPath, parsePath, win32Name } from "../../../src/core/paths/lexical.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { createPatternSet } from "../../../src/core/paths/pattern-set.js";
import { hasParentStep, physicalPath } from "../../../src/core/paths/physical.js";
import { splitPath } from "../../../src/core/paths/prepared.js";
import { compileSegment, segmentMatches } from "../../../src/core/paths/segment-glob.js";

const LINUX: PlatformProfile = { platform: "linux", home: "/home/u", env: { HOME: "/home/u" }, cwd: "/w" };
const WIN: PlatformProfile = { platform: "win32", home: "C:\\Users\\u", env: {}, cwd: "C:\\w" };

const why = (body: string, p: PlatformProfile): string => {
  const c = compilePathPattern(body, p);
  if (!c.ok) return c.expected.replace(/ \(allowed forms: .*\)$/, "");
  const inert = (c.pattern as { inert?: string }).inert;
  return inert === undefined ? "compiled" : `inert: ${inert}`;
};
const matches = (body: string, path: string, p: PlatformProfile): boolean => {
  const c = compilePathPattern(body, p);
  if (!c.ok) throw new Error(c.expected);
  return c.pattern.test(path);
};

describe("variables", () => {
  it("lets a set HOME or USERPROFILE win over the profile's home folder", () => {
    expect(lookupVar("HOME", { ...LINUX, env: { HOME: "/elsewhere" } })).toBe("/elsewhere");
    expect(lookupVar("USERPROFILE", { ...WIN, env: { USERPROFILE: "D:\\u" } })).toBe("D:\\u");
    expect(lookupVar("home", { ...WIN, env: { HOME: "E:\\h" } })).toBe("E:\\h");
  });

  it("makes a PowerShell-style anchor inert on linux even when the name is set there", () => {
    expect(why("$env:APPDATA/x/**", { ...LINUX, env: { APPDATA: "/a" } })).toBe(
      "inert: variable APPDATA is not set on this machine",
    );
  });

  it("refuses (not inert) an anchor whose set variable is relative", () => {
    expect(why("$REL/x/**", { ...LINUX, env: { REL: "rel" } })).toBe(
      "an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere",
    );
    expect(why("${REL}/x", { ...LINUX, env: { REL: "rel" } })).toBe(
      "an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere",
    );
  });
});

describe("separators and colons per platform", () => {
  it("does not read `~\\` as the home folder on linux, where `\\` is part of a name", () => {
    expect(expandHomeAndVars("~\\x", LINUX)).toBe("~\\x");
    expect(expandHomeAndVars("~\\x", WIN)).toBe("C:\\Users\\u\\x");
  });

  it("treats `\\` in a linux name pattern as part of the name", () => {
    expect(matches("**/a\\b", "/x/a\\b", LINUX)).toBe(true);
    expect(matches("**/a\\b", "/x/a/b", LINUX)).toBe(false);
  });

  it("reads a trailing stream colon on a win32 anchor as the file itself", () => {
    expect(why("C:\\x\\y:", WIN)).toBe("compiled");
    expect(matches("C:\\x\\y:", "C:\\x\\y", WIN)).toBe(true);
  });

  it("keeps linux names with dots, spaces and colons as written", () => {
    expect(hasParentStep(["..:x"], "linux")).toBe(false);
    expect(hasParentStep(["..:x"], "win32")).toBe(true);
    expect(physicalPath("/", ["a.", "b:c", "..", "d "], "linux", { realpath: () => undefined })).toBe(
      "/a./d ",
    );
  });

  it("strips a drive prefix from a file: URI only at its start", () => {
    expect(fileUriToPath("file:///C:/x", WIN)).toEqual({ ok: true, text: "C:/x" });
    expect(fileUriToPath("file:///dir/c:x", WIN)).toEqual({ ok: true, text: "/dir/c:x" });
  });
});

describe("win32 prefixes and roots", () => {
  it("counts a namespace prefix only at the start of the path", () => {
    expect(parsePath("abcdE:\\??\\x", "win32")).toEqual({
      ok: true,
      parsed: { kind: "relative", root: "", segments: ["abcdE:", "??", "x"] },
    });
    expect(parsePath("C:\\a\\??\\UNC\\b", "win32")).toEqual({
      ok: true,
      parsed: { kind: "absolute", root: "C:", segments: ["", "a", "??", "UNC", "b"] },
    });
  });

  it("strips `\\\\?\\` only before a drive letter and its colon", () => {
    expect(parsePath("\\\\?\\ab:c", "win32")).toEqual({
      ok: true,
      parsed: { kind: "absolute", root: "\\\\?\\ab:c", segments: [] },
    });
  });

  it("keeps an empty name before a stream (it opens nothing special)", () => {
    expect(win32Name(":s")).toBe("");
    expect(win32Name("")).toBe("");
    expect(win32Name(" .:s")).toBeNull();
    expect(win32Name("a. :s")).toBe("a");
  });

  it("writes a bare drive root with its separator", () => {
    expect(joinPath("C:", [], "win32")).toBe("C:\\");
    expect(joinPath("\\\\s\\h", [], "win32")).toBe("\\\\s\\h");
  });

  it("gives no root to what is not an absolute win32 path", () => {
    expect(splitPath("\\\\srv", "win32")).toEqual({ root: "", segments: ["srv"] });
    expect(splitPath("a\\\\b\\c", "win32")).toEqual({ root: "", segments: ["a", "b", "c"] });
    expect(splitPath("C:x\\y", "win32")).toEqual({ root: "", segments: ["c:x", "y"] });
  });
});

describe("segment classes", () => {
  const m = (glob: string, name: string) => {
    const c = compileSegment(glob);
    if (!c.ok) throw new Error(c.expected);
    return segmentMatches(c.matcher, name);
  };

  it("takes a backslash inside a class literally (linux names may hold one)", () => {
    expect(m("[a\\]", "\\")).toBe(true);
    expect(m("[a\\b]", "\\")).toBe(true);
    expect(m("[a\\b]", "\b")).toBe(false);
  });

  it("matches only the listed members", () => {
    for (const other of ["S", "e", " ", "!", "-"]) expect(m("[ab]", other)).toBe(false);
    expect(m("[!ab]", "S")).toBe(true);
  });

  it("reads `-` at either end as itself and between members as a range", () => {
    expect(m("[-a]", "-")).toBe(true);
    expect(m("[a-]", "-")).toBe(true);
    expect(m("[!-]", "-")).toBe(false);
    expect(m("[!-]", "a")).toBe(true);
    expect(m("[--]", "-")).toBe(true);
    expect(m("[a-c]", "b")).toBe(true);
    expect(m("[a-c]", "-")).toBe(false);
  });
});

describe("physical walk through a link", () => {
  it("leaves the link's target on `..`, not the folder holding the link", () => {
    const links: PathResolver = {
      realpath: (p) => (p === "/l" ? "/real/dir" : p.startsWith("/l/") ? `/real/dir${p.slice(2)}` : p),
    };
    expect(physicalPath("/", ["l", "..", "x"], "linux", links)).toBe("/real/x");
    expect(physicalPath("/", ["l", "..", "..", "x"], "linux", links)).toBe("/x");
  });
});

describe("catch-all name patterns", () => {
  it("refuses every spelling of `any path`, saying so", () => {
    for (const body of ["**/", "**/**", "**/**/**", "**/*", "**/*/*", "**/*/**"])
      expect(why(body, LINUX)).toBe("a pattern that does not match every path");
  });

  it("accepts a star segment next to a fixed name", () => {
    expect(why("**/*/.env", LINUX)).toBe("compiled");
    expect(matches("**/*/.env", "/a/.env", LINUX)).toBe(true);
    expect(matches("**/*/.env", "/.env", LINUX)).toBe(false);
  });

  it("keeps a drive-lookalike as a name on linux", () => {
    expect(why("C:/**", LINUX)).toBe("an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere");
    expect(lexicalPath("C:", LINUX)).toMatchObject({ ok: true, lexical: "/w/C:" });
  });
});

describe("anchors", () => {
  it("refuses an anchor that folds to the root as a catch-all", () => {
    expect(why("/a/../**", LINUX)).toBe("a pattern that does not match every path");
    expect(why("~/../../**", LINUX)).toBe("a pattern that does not match every path");
    expect(why("C:\\a\\..\\**", WIN)).toBe("a pattern that does not match every path");
  });

  it("sees a wildcard after a doubled slash in a linux anchor", () => {
    expect(why("/a//?/x", LINUX)).toBe("an anchored path without wildcards (use **/NAME for names anywhere)");
  });

  it("compares a linux anchor's real path without Unicode folding", () => {
    const c = compilePathPattern("/a/**", LINUX);
    if (!c.ok) throw new Error(c.expected);
    const nfd = { realpath: () => "/r/A\u0301" };
    expect(c.pattern.test("/r/A\u0301/x", nfd)).toBe(true);
    expect(c.pattern.test("/r/\u00c1/x", nfd)).toBe(false);
  });

  it("never reports an inert pattern as below a folder", () => {
    const c = compilePathPattern("%APPDATA%/x/**", LINUX);
    if (!c.ok) throw new Error(c.expected);
    const set = createPatternSet([c.pattern], "linux");
    expect(set.firstBelow("/")).toBeUndefined();
    expect(set.firstBelow("/w")).toBeUndefined();
  });
});

describe("more edges", () => {
  it("looks for an unset variable only at the start of a relative anchor", () => {
    expect(why("a/$NOPE/x", LINUX)).toBe(
      "an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere",
    );
    expect(why("$NOPE/x", LINUX)).toBe("inert: variable NOPE is not set on this machine");
  });

  it("says which form an anchored pattern has", () => {
    const f = compilePathPattern("/a/b", LINUX);
    const d = compilePathPattern("/a/b/**", LINUX);
    expect(f.ok && (f.pattern as { form?: string }).form).toBe("file");
    expect(d.ok && (d.pattern as { form?: string }).form).toBe("subtree");
  });

  it("leaves `~name` alone on win32 too", () => {
    expect(expandHomeAndVars("~x", WIN)).toBe("~x");
  });

  it("needs every name of a name subtree, even one written as *", () => {
    expect(matches("**/x/*/**", "/x", LINUX)).toBe(false);
    expect(matches("**/x/*/**", "/q/x/y", LINUX)).toBe(true);
  });

  it("gives no root to a rooted win32 path without a drive", () => {
    expect(splitPath("\\a\\b\\c", "win32")).toEqual({ root: "", segments: ["a", "b", "c"] });
  });
});

describe("what lies below a folder", () => {
  const set = (...bodies: string[]) =>
    createPatternSet(
      bodies.map((b) => {
        const c = compilePathPattern(b, LINUX);
        if (!c.ok) throw new Error(c.expected);
        return c.pattern;
      }),
      "linux",
    );

  it("compares every name of the folder with the anchor, the first one too", () => {
    expect(set("/a/b/c").firstBelow("/x/b")).toBeUndefined();
    expect(set("/a/b/c").firstBelow("/a/b")?.body).toBe("/a/b/c");
    expect(set("/a/b/c/**").firstBelow("/x/b")).toBeUndefined();
    expect(set("/a/b/**").firstBelow("/a/b")?.body).toBe("/a/b/**");
    expect(set("/a/b").firstBelow("/a/b")).toBeUndefined();
    expect(set("/a/b").firstBelow("/a/b/c")).toBeUndefined();
  });

  it("skips name patterns when only anchored ones are asked for (removals)", () => {
    const s = set("**/.git/hooks/**", "**/.git/config", "/a/b/**");
    expect(s.firstBelow("/x/.git")?.body).toBe("**/.git/hooks/**");
    expect(s.firstBelow("/x/.git", undefined, true)).toBeUndefined();
    expect(set("**/.git/config", "/x/.git/y").firstBelow("/x/.git", undefined, true)?.body).toBe("/x/.git/y");
    expect(s.firstBelow("/a", undefined, true)?.body).toBe("/a/b/**");
  });

  it("treats a pattern that cannot say what is below as never below", () => {
    const plain = { body: "plain", test: () => true };
    expect(createPatternSet([plain], "linux").firstBelow("/a")).toBeUndefined();
    expect(createPatternSet([plain], "linux").first("/a")?.body).toBe("plain");
  });

  it("finds a name subtree whose first name is a wildcard", () => {
    expect(set("**/*.pem/**").first("/k/x.pem/y")?.body).toBe("**/*.pem/**");
    expect(set("**/*.env").first("/a/b.env")?.body).toBe("**/*.env");
  });
});

describe("other names of a file", () => {
  // The production resolver stats the path, so a non-string is a bug there: the fake throws too.
  const withNames = (shared: string[]) => ({
    realpath: (p: string) => (p === "/l" ? "/real/dir" : p.startsWith("/l/") ? `/real/dir${p.slice(2)}` : p),
    hasOtherNames: (p: string) => {
      if (typeof p !== "string") throw new TypeError("expected a path");
      return shared.includes(p);
    },
  });

  it("asks about the physical path of a `..` walk as well as the resolved one", () => {
    const c = canonicalise("/l/../f", { ...LINUX, cwd: "/" }, withNames(["/real/f"]));
    expect(c).toMatchObject({ ok: true, resolved: "/f", physical: "/real/f", otherNames: true });
    const d = canonicalise("/l/../f", { ...LINUX, cwd: "/" }, withNames(["/f"]));
    expect(d).toMatchObject({ ok: true, resolved: "/f", physical: "/real/f", otherNames: true });
    const e = canonicalise("/l/../f", { ...LINUX, cwd: "/" }, withNames([]));
    expect(e.ok && "otherNames" in e).toBe(false);
  });

  it("asks only about the resolved path when there is no `..`, and not at all without the question", () => {
    const asked: string[] = [];
    const r = withNames(["/g"]);
    const c = canonicalise("/g", LINUX, {
      ...r,
      hasOtherNames: (p: string) => (asked.push(p), r.hasOtherNames(p)),
    });
    expect(asked).toEqual(["/g"]);
    const none: string[] = [];
    const h = canonicalise("/h", LINUX, {
      ...r,
      hasOtherNames: (p: string) => (none.push(p), r.hasOtherNames(p)),
    });
    expect(none).toEqual(["/h"]);
    expect(h.ok && "otherNames" in h).toBe(false);
    expect(c).toMatchObject({ ok: true, resolved: "/g", otherNames: true });
    expect(c.ok && "physical" in c).toBe(false);
    const d = canonicalise("/g", LINUX, LEXICAL_ONLY);
    expect(d.ok && "otherNames" in d).toBe(false);
  });
});
