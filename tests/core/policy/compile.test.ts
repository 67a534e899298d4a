import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { GlobSet } from "../../../src/core/policy/globs.js";
import { LINUX, WIN32, load, useTempHome } from "../../helpers/policy.js";

useTempHome();

describe("tool-name globs", () => {
  it("match without regard to case and return the first glob in list order", () => {
    const set = new GlobSet(["*fetch*", "*run*", "*exec*", "webfetch"]);
    expect(set.first("RunScript")).toBe("*run*");
    expect(set.first("Execute_Command")).toBe("*exec*");
    expect(set.first("WebFetch")).toBe("*fetch*"); // the literal comes later in the list
    expect(set.first("read_file")).toBeUndefined();
  });

  it("let a single * cross / and leading dots, since tool names are not paths", () => {
    const set = new GlobSet(["*exec*"]);
    expect(set.first("ns/exec")).toBe("*exec*");
    expect(set.first(".exec")).toBe("*exec*");
  });

  it("treat regex characters in names as text", () => {
    const set = new GlobSet(["a.b", "get-*"]);
    expect(set.first("aXb")).toBeUndefined();
    expect(set.first("A.B")).toBe("a.b");
    expect(set.first("GET-env")).toBe("get-*");
  });

  it("agree with a glob-by-glob scan (one combined regex must not change the answer)", () => {
    const glob = fc.stringMatching(/^[ab_*?]{1,5}$/).filter((g) => g.trim() !== "");
    const name = fc.stringMatching(/^[abAB_/]{1,6}$/);
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 12 }), name, (globs, n) => {
        const expected = globs.find((g) => new GlobSet([g]).first(n) !== undefined);
        expect(new GlobSet(globs).first(n)).toBe(expected);
      }),
    );
  });
});

describe("taint sources", () => {
  const policy = load(`version: 1
taint:
  sources: ["*fetch*", "*search*"]
  servers: ["browser*"]
  exclude: ["search_files", "fetch_local*"]
`);

  it("come from tool names and server names", () => {
    expect(policy.taintSource("web_search")).toBe("*search*");
    expect(policy.taintSource("snapshot", "browser-main")).toBe("browser*");
    expect(policy.taintSource("snapshot", "files")).toBeUndefined();
    expect(policy.taintSource("snapshot")).toBeUndefined();
  });

  it("are overruled by an exclusion, whatever matched", () => {
    expect(policy.taintSource("search_files")).toBeUndefined();
    expect(policy.taintSource("SEARCH_FILES")).toBeUndefined();
    expect(policy.taintSource("fetch_local_cache")).toBeUndefined();
    expect(policy.taintSource("search_files", "browser-main")).toBeUndefined();
  });
});

describe("defaults of a minimal policy", () => {
  it("means: no lists, exec allows, signatures on, mode unset", () => {
    const p = load("version: 1\n");
    expect(p.mode).toBeUndefined();
    expect(p.execGlob("bash")).toBeUndefined();
    expect(p.exec).toEqual({ action: "allow", actionIfTainted: "allow" });
    expect(p.signatures).toBe(true);
    expect(p.envDeny).toEqual([]);
    expect(p.matchPath("deny", "/home/ada/.ssh/id_rsa")).toBeUndefined();
  });

  it("gives action_if_tainted the value of action when absent; keeps signatures: false", () => {
    const p = load(
      'version: 1\nmode: strict\nexec:\n  tools: ["bash"]\n  action: deny\ntaint:\n  signatures: false\nenv:\n  deny: ["*_TOKEN"]\n',
    );
    expect(p.mode).toBe("strict");
    expect(p.exec).toEqual({ action: "deny", actionIfTainted: "deny" });
    expect(p.signatures).toBe(false);
    expect(p.envDeny).toEqual(["*_TOKEN"]);
  });

  it("treats an explicit empty list like a missing one", () => {
    const a = load("version: 1\npaths:\n  deny: []\n");
    const b = load("version: 1\n");
    expect(a.matchPath("deny", "/x/.env")).toBe(b.matchPath("deny", "/x/.env"));
  });
});

describe("path lists", () => {
  it("return the first pattern in list order, as written", () => {
    const p = load('version: 1\npaths:\n  deny: ["~/proj/**", "**/.env", "~/proj/.env"]\n');
    expect(p.matchPath("deny", "/home/ada/proj/.env")).toBe("~/proj/**");
    expect(p.matchPath("deny", "/srv/.env")).toBe("**/.env");
  });

  it("follow a symlinked anchor when given a resolver", () => {
    const p = load('version: 1\npaths:\n  deny: ["~/.ssh/**"]\n');
    const resolver: PathResolver = { realpath: (a) => (a === "/home/ada/.ssh" ? "/vault/ssh" : a) };
    expect(p.matchPath("deny", "/vault/ssh/id_rsa")).toBeUndefined();
    expect(p.matchPath("deny", "/vault/ssh/id_rsa", resolver)).toBe("~/.ssh/**");
  });

  it("list patterns that cannot match on this profile as inert, and load them", () => {
    const text = 'version: 1\npaths:\n  deny: ["%APPDATA%/Claude/**", "~/.ssh/**"]\n';
    expect(load(text, LINUX).inert).toEqual([
      { list: "deny", text: "%APPDATA%/Claude/**", why: expect.stringContaining("APPDATA") },
    ]);
    expect(load(text, WIN32).inert).toEqual([]);
    expect(load(text, WIN32).matchPath("deny", "C:\\Users\\ada\\AppData\\Roaming\\Claude\\x.json")).toBe(
      "%APPDATA%/Claude/**",
    );
  });
});
