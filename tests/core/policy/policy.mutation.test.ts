// Exact-value tests for the policy compiler's small parts: glob sets, "did you mean", key paths,
// exec cross-checks and the defaults of a compiled policy.
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { buildPolicy } from "../../../src/core/policy/compile.js";
import { compileLists, PATH_LISTS, section } from "../../../src/core/policy/compile-lists.js";
import { crossCheck } from "../../../src/core/policy/cross-check.js";
import { GlobSet, globProblem } from "../../../src/core/policy/globs.js";
import { editDistance, nearKey } from "../../../src/core/policy/near-key.js";
import { expectedAt, KNOWN_KEYS } from "../../../src/core/policy/schema.js";
import { formatKeyPath, readYamlTree } from "../../../src/core/policy/yaml-tree.js";

const LINUX: PlatformProfile = {
  platform: "linux",
  home: "/home/ada",
  env: { HOME: "/home/ada" },
  cwd: "/w",
};

describe("globProblem", () => {
  it("words each refusal", () => {
    expect(globProblem("")).toBe("a non-empty glob");
    expect(globProblem("   ")).toBe("a non-empty glob");
    expect(globProblem("!x")).toBe(
      "a glob without a leading ! (negation is not supported: list what to match)",
    );
    expect(globProblem(" x")).toBe("a glob without leading or trailing spaces");
    expect(globProblem("x ")).toBe("a glob without leading or trailing spaces");
    expect(globProblem("*exec*")).toBeUndefined();
    expect(globProblem("a!b")).toBeUndefined();
  });
});

describe("GlobSet", () => {
  it("returns the earliest glob in list order, literal or wildcard", () => {
    const s = new GlobSet(["*sh*", "bash", "Bash", "b?sh", "x{a,b}y"]);
    expect(s.first("bash")).toBe("*sh*");
    expect(s.first("BASH")).toBe("*sh*");
    expect(new GlobSet(["bash", "*sh*"]).first("bash")).toBe("bash");
    expect(new GlobSet(["bash", "Bash"]).first("BASH")).toBe("bash");
    expect(new GlobSet(["x{a,b}y", "*"]).first("xby")).toBe("x{a,b}y");
    expect(new GlobSet(["a*", "x{a,b}y", "*y"]).first("xby")).toBe("x{a,b}y");
    expect(new GlobSet(["{a,b}{c,d}", "*d"]).first("bd")).toBe("{a,b}{c,d}");
    expect(new GlobSet(["{p,q}z", "{r,s}s*", "*s"]).first("rss")).toBe("{r,s}s*");
    // A glob outside the syntax never reaches GlobSet from a policy; given directly, it throws.
    expect(() => new GlobSet(["a(b|c)d"])).toThrow('glob "a(b|c)d": expected a glob of *, ?');
    expect(s.first("zzz")).toBeUndefined();
    expect(new GlobSet([]).first("a")).toBeUndefined();
    expect(new GlobSet(["lit"]).first("li")).toBeUndefined();
    expect(s.globs).toEqual(["*sh*", "bash", "Bash", "b?sh", "x{a,b}y"]);
  });

  it("matches whole names only", () => {
    const s = new GlobSet(["exec*"]);
    expect(s.first("my_exec")).toBeUndefined();
    expect(s.first("exec_x")).toBe("exec*");
    expect(new GlobSet(["a.c"]).first("abc")).toBeUndefined();
  });
});

describe("near keys", () => {
  it("counts inserts, deletes, substitutions and swaps, ignoring case", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("", "ab")).toBe(2);
    expect(editDistance("abc", "ABC")).toBe(0);
    expect(editDistance("abc", "abd")).toBe(1);
    expect(editDistance("abc", "acb")).toBe(1);
    expect(editDistance("abcd", "badc")).toBe(2);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("ab", "abc")).toBe(1);
    expect(editDistance("abc", "bc")).toBe(1);
    expect(editDistance("ca", "abc")).toBe(3);
  });

  it("suggests within a third of the length, at least 2", () => {
    expect(nearKey("deny_reads", ["deny", "deny_read"])).toBe("deny_read");
    expect(nearKey("foo", ["deny", "exec"])).toBeUndefined();
    expect(nearKey("ab", ["abcd"])).toBe("abcd");
    expect(nearKey("a", ["abcd"])).toBeUndefined();
    // confirm_if_tainted has 18 letters: 6 edits allowed, 7 are not.
    expect(nearKey("confirm_xxxxxxnted", ["confirm_if_tainted"])).toBe("confirm_if_tainted");
    expect(nearKey("confirm_xxxxxxxted", ["confirm_if_tainted"])).toBeUndefined();
    expect(nearKey("x", [])).toBeUndefined();
    expect(nearKey("tols", ["tools", "tool"])).toBe("tools");
  });
});

describe("key paths and expectations", () => {
  it("formats key paths", () => {
    expect(formatKeyPath([])).toBe("(document)");
    expect(formatKeyPath(["paths"])).toBe("paths");
    expect(formatKeyPath(["paths", "deny", 3])).toBe("paths.deny[3]");
    expect(formatKeyPath([0, "a"])).toBe("[0].a");
  });

  it("looks up expectations with any list index", () => {
    expect(expectedAt(["paths", "deny", 7])).toBe("a path pattern string");
    expect(expectedAt([])).toBe("a mapping with version: 1");
    expect(expectedAt(["taint", "servers", 0])).toBe("a server-name glob string");
    expect(expectedAt(["nope"])).toBeUndefined();
    expect(KNOWN_KEYS[""]).toEqual(["version", "mode", "paths", "exec", "taint", "env", "runs_later", "egress", "commands", "ask"]);
    expect(KNOWN_KEYS.ask).toEqual(["dialog"]);
    expect(expectedAt(["ask", "dialog"])).toBe("one of auto, off");
    expect(KNOWN_KEYS.runs_later).toEqual(["git_dirs", "path_folders"]);
    expect(expectedAt(["runs_later", "git_dirs"])).toBe("one of allow, confirm, deny");
    expect(KNOWN_KEYS.taint).toEqual(["sources", "servers", "exclude", "signatures"]);
  });

  it("reads YAML with the line of every key and value", () => {
    const t = readYamlTree("version: 1\npaths:\n  deny:\n    - a\n    - b\n  confirm:\n");
    expect(t.broken).toBe(false);
    expect(t.problems).toEqual([]);
    expect(t.value).toEqual({ version: 1, paths: { deny: ["a", "b"], confirm: null } });
    expect(t.lines.get("paths.deny[1]")).toBe(5);
    expect(t.lines.get("key:paths.deny")).toBe(3);
    expect(t.lines.get("paths.confirm")).toBe(6);
    expect(t.lines.get("(document)")).toBe(1);
  });

  it("reports aliases, complex keys, duplicates, empty documents and bad YAML", () => {
    const a = readYamlTree("x: &a 1\ny: *a\n");
    expect(a.problems).toEqual([
      {
        path: ["y"],
        line: 2,
        expected: "a value written out (YAML aliases are not allowed; quote globs that start with *)",
        got: "alias *a",
      },
    ]);
    expect(a.value).toEqual({ x: 1, y: undefined });
    expect(readYamlTree("? [a]\n: 1\n").problems).toEqual([
      { path: [], line: 1, expected: "plain keys", got: "a complex or empty key" },
    ]);
    expect(readYamlTree("a: 1\nb: 2\na: 3\n")).toMatchObject({
      value: { a: 1, b: 2 },
      problems: [
        { path: ["a"], line: 3, expected: "each key once (first on line 1)", got: "a duplicate key" },
      ],
    });
    expect(readYamlTree("")).toMatchObject({
      broken: true,
      value: undefined,
      problems: [{ path: [], line: 1, expected: "a mapping with version: 1", got: "an empty document" }],
    });
    const bad = readYamlTree("a: 1\nb: [\n");
    expect(bad.broken).toBe(true);
    expect(bad.value).toBeUndefined();
    expect(bad.problems[0]).toMatchObject({ path: [], expected: "valid YAML" });
    expect(bad.problems[0]?.got).toMatch(/^[A-Z_]+: \S/);
    expect(bad.problems[0]?.got).not.toContain("\n");
  });

  it("keeps a key named __proto__ as plain data", () => {
    const t = readYamlTree("__proto__: 1\n");
    expect(Object.getPrototypeOf(t.value)).toBe(Object.prototype);
    expect(Object.keys(t.value as object)).toEqual(["__proto__"]);
  });
});

describe("exec cross-checks", () => {
  it("requires an action for listed tools or an action_if_tainted", () => {
    expect(crossCheck(undefined)).toEqual([]);
    expect(crossCheck({})).toEqual([]);
    expect(crossCheck({ tools: [] })).toEqual([]);
    expect(crossCheck({ tools: ["x"] })).toEqual([
      {
        path: ["exec", "action"],
        expected: "one of allow, confirm, deny (required when exec.tools lists tools)",
        got: "nothing",
      },
    ]);
    expect(crossCheck({ action_if_tainted: "deny" })).toEqual([
      {
        path: ["exec", "action"],
        expected: "one of allow, confirm, deny (required with exec.action_if_tainted)",
        got: "nothing",
      },
    ]);
  });

  it("refuses a tainted verdict milder than the clean one, and only that", () => {
    expect(crossCheck({ action: "confirm", action_if_tainted: "allow" })).toEqual([
      {
        path: ["exec", "action_if_tainted"],
        expected: "a verdict at least as strict as exec.action (confirm)",
        got: "allow",
      },
    ]);
    expect(crossCheck({ action: "deny", action_if_tainted: "confirm" })).toHaveLength(1);
    expect(crossCheck({ action: "confirm", action_if_tainted: "confirm" })).toEqual([]);
    expect(crossCheck({ action: "allow", action_if_tainted: "deny" })).toEqual([]);
    expect(crossCheck({ tools: ["x"], action: "deny", action_if_tainted: "deny" })).toEqual([]);
  });
});

describe("compiled lists and policy defaults", () => {
  it("reads sections only from mappings", () => {
    expect(section({ a: 1 }, "a")).toBe(1);
    expect(section([1], "0")).toBeUndefined();
    expect(section(null, "a")).toBeUndefined();
    expect(section("s", "length")).toBeUndefined();
    expect(PATH_LISTS).toEqual(["deny", "deny_if_tainted", "confirm", "confirm_if_tainted", "deny_read"]);
  });

  it("reports bad patterns and globs with their key paths, skipping non-strings", () => {
    const { lists, problems } = compileLists(
      {
        paths: { deny: [1, "relative/x", "~/.ssh/**"], deny_read: ["**"] },
        exec: { tools: ["!x", "*sh"] },
        taint: { sources: [" a"], servers: [""], exclude: ["ok"] },
        env: { deny: ["!E", "AWS_*"] },
      },
      LINUX,
    );
    expect(problems.map((p) => [p.path, p.got])).toEqual([
      [["paths", "deny", 1], '"relative/x"'],
      [["paths", "deny_read", 0], '"**"'],
      [["exec", "tools", 0], '"!x"'],
      [["taint", "sources", 0], '" a"'],
      [["taint", "servers", 0], '""'],
      [["env", "deny", 0], '"!E"'],
    ]);
    expect(problems[2]?.expected).toBe(
      "a glob without a leading ! (negation is not supported: list what to match)",
    );
    expect(lists.paths.deny.patterns.map((p) => p.body)).toEqual(["~/.ssh/**"]);
    expect(lists.execTools.globs).toEqual(["*sh"]);
    expect(lists.exclude.globs).toEqual(["ok"]);
    expect(lists.envDeny).toEqual(["AWS_*"]);
    expect(compileLists({ paths: "x" }, LINUX).problems).toEqual([]);
  });

  it("builds a policy with allow, signatures on and no mode by default", () => {
    const { lists } = compileLists({}, LINUX);
    const p = buildPolicy({ version: 1 }, lists, "src", "h");
    expect(p.source).toBe("src");
    expect(p.sha256).toBe("h");
    expect(p.mode).toBeUndefined();
    expect(p.exec).toEqual({ action: "allow", actionIfTainted: "allow" });
    expect(p.signatures).toBe(true);
    expect(p.envDeny).toEqual([]);
    expect(p.inert).toEqual([]);
    const q = buildPolicy(
      { version: 1, mode: "strict", exec: { action: "confirm" }, taint: { signatures: false } },
      lists,
      "s",
      "h",
    );
    expect(q.mode).toBe("strict");
    expect(q.exec).toEqual({ action: "confirm", actionIfTainted: "confirm" });
    expect(q.signatures).toBe(false);
  });

  it("answers taint sources by tool, then by server, and lets exclusions win", () => {
    const doc = {
      version: 1 as const,
      taint: { sources: ["fetch*"], servers: ["web*"], exclude: ["fetch_local"] },
    };
    const p = buildPolicy(doc, compileLists(doc, LINUX).lists, "s", "h");
    expect(p.taintSource("fetch_url")).toBe("fetch*");
    expect(p.taintSource("fetch_url", "websrv")).toBe("fetch*");
    expect(p.taintSource("read", "websrv")).toBe("web*");
    expect(p.taintSource("read")).toBeUndefined();
    expect(p.taintSource("read", "local")).toBeUndefined();
    expect(p.taintSource("fetch_local", "websrv")).toBeUndefined();
  });

  it("cites the pattern as written and lists inert ones", () => {
    const doc = {
      version: 1 as const,
      paths: { deny: ["~/.ssh/**", "%APPDATA%/x/**"], confirm: ["**/.env"] },
    };
    const p = buildPolicy(doc, compileLists(doc, LINUX).lists, "s", "h");
    expect(p.matchPath("deny", "/home/ada/.ssh/id")).toBe("~/.ssh/**");
    expect(p.matchPath("confirm", "/home/ada/.ssh/id")).toBeUndefined();
    expect(p.matchPath("confirm", "/x/.env")).toBe("**/.env");
    expect(p.inert).toEqual([
      { list: "deny", text: "%APPDATA%/x/**", why: "variable APPDATA is not set on this machine" },
    ]);
    expect(p.execGlob("x")).toBeUndefined();
  });
});
