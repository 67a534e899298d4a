import { describe, expect, it } from "vitest";
import type { PathPattern, PlatformProfile } from "../../../src/core/paths/api.js";
import { compilePathPattern, type CompiledPathPattern } from "../../../src/core/paths/pattern.js";
import { DARWIN, fakeResolver, LINUX, WIN32 } from "../../helpers/profiles.js";

function compile(body: string, profile: PlatformProfile): CompiledPathPattern {
  const c = compilePathPattern(body, profile);
  if (!c.ok) throw new Error(`${body} rejected: ${c.expected}`);
  return c.pattern as CompiledPathPattern;
}

type Row = [pattern: string, path: string, matches: boolean];

function table(profile: PlatformProfile, rows: Row[]) {
  it.each(rows)("%j vs %j → %s", (body, path, expected) => {
    expect(compile(body, profile).test(path)).toBe(expected);
  });
}

describe("patterns on linux", () => {
  table(LINUX, [
    ["~/.ssh/**", "/home/u/.ssh", true],
    ["~/.ssh/**", "/home/u/.ssh/id_rsa", true],
    ["~/.ssh/**", "/home/u/.ssh/a/b/c", true],
    ["~/.ssh/**", "/home/u/.sshx", false],
    ["~/.ssh/**", "/home/u", false],
    ["~/.ssh/**", "/home/u/.SSH/id_rsa", false], // linux never folds case
    ["$HOME/.aws/**", "/home/u/.aws/credentials", true],
    ["${XDG_CONFIG_HOME}/gh/**", "/home/u/.config/gh/hosts.yml", true],
    ["/home/u/**", "/home/u-backup/x", false],
    ["/etc/**", "/etc/passwd", true],
    ["/etc/**", "/etcetera", false],
    ["~/.bashrc", "/home/u/.bashrc", true],
    ["~/.bashrc", "/home/u/.bashrc/x", false],
    ["~/.bashrc", "/home/u/.bashrc.bak", false],
    ["~", "/home/u", true],
    ["~/**", "/home/u/anything", true],
    ["~/x/../.bashrc", "/home/u/.bashrc", true],
    ["file:///etc/**", "/etc/shadow", true],
    ["**/.env", "/srv/project/.env", true],
    ["**/.env", "/.env", true],
    ["**/.env", "/srv/.env/x", false],
    ["**/.env", "/srv/x.env", false],
    ["**/.env", "/srv/.ENV", false],
    ["**/.env.*", "/srv/.env.local", true],
    ["**/.env.*", "/srv/.env", false],
    ["**/*.sh", "/srv/build.sh", true],
    ["**/*.sh", "/srv/build.sh/x", false],
    ["**/*.sh", "/srv/.sh", true],
    ["**/id_[rd]sa*", "/home/u/.ssh/id_rsa.pub", true],
    ["**/id_[!r]sa", "/home/u/.ssh/id_rsa", false],
    ["**/id_[!r]sa", "/home/u/.ssh/id_dsa", true],
    ["**/file?.txt", "/a/file1.txt", true],
    ["**/file?.txt", "/a/file10.txt", false],
    ["**/[a-c].txt", "/a/b.txt", true],
    ["**/[a-c].txt", "/a/d.txt", false],
    ["**/a+b(c).txt", "/x/a+b(c).txt", true],
    ["**/.git/config", "/r/.git/config", true],
    ["**/.git/config", "/r/git/config", false],
    ["**/.git/config", "/config", false],
    ["**/.git/hooks/**", "/r/.git/hooks", true],
    ["**/.git/hooks/**", "/r/.git/hooks/pre-commit", true],
    ["**/.git/hooks/**", "/r/.git/hooks/a/b", true],
    ["**/.git/hooks/**", "/r/.git/hook/a", false],
    ["**/.git/hooks/**", "/r/.git", false],
    ["**/.github/workflows/*.yml", "/r/.github/workflows/ci.yml", true],
    ["**/.github/workflows/*.yml", "/r/.github/workflows/x/ci.yml", false],
  ]);
});

describe("patterns on darwin", () => {
  table(DARWIN, [
    ["~/.ssh/**", "/Users/u/.SSH/ID_RSA", true],
    ["~/.ssh/**", "/users/U/.ssh/x", true],
    ["**/.ENV", "/x/.env", true],
    ["**/caf\u00e9/**", "/x/CAFE\u0301/y", true], // NFD and case on the path side
    ["**/cafe\u0301", "/x/caf\u00c9", true], // NFD on the pattern side
    ["~/Library/Application Support/Claude/**", "/Users/u/library/application support/claude/x.json", true],
  ]);
});

describe("patterns on win32", () => {
  table(WIN32, [
    ["~/.ssh/**", "C:\\Users\\u\\.ssh\\id_rsa", true],
    ["~\\.ssh\\**", "c:\\users\\U\\.SSH\\id_rsa", true],
    ["%USERPROFILE%\\.ssh\\**", "C:/Users/u/.ssh/id_rsa", true],
    ["%APPDATA%/Claude/**", "C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json", true],
    ["%appdata%/Claude/**", "C:\\Users\\u\\AppData\\Roaming\\claude", true],
    ["C:\\Windows\\**", "D:\\Windows\\x", false],
    ["C:\\Windows\\**", "C:\\WindowsApps\\x", false],
    ["\\\\srv\\share\\secret\\**", "\\\\SRV\\Share\\Secret\\x", true],
    ["\\\\?\\C:\\x\\**", "C:\\X\\y", true],
    ["**/.env", "C:\\app\\.ENV", true],
    ["**\\*.PS1", "C:\\app\\run.ps1", true],
    ["**/.git/hooks/**", "C:\\r\\.GIT\\Hooks\\pre-commit", true],
    ["\\\\srv\\share\\**", "\\\\srv\\share\\x", true],
    ["\\\\srv\\share\\**", "\\\\srv\\share", true],
    ["\\\\srv\\share\\**", "\\\\srv\\other\\x", false],
  ]);
});

describe("anchors follow the resolver", () => {
  it("matches the real target of a symlinked anchor", () => {
    const p = compile("~/.ssh/**", LINUX);
    const r = fakeResolver({ "/home/u/.ssh": "/data/keys" });
    expect(p.test("/data/keys/id_rsa")).toBe(false);
    expect(p.test("/data/keys/id_rsa", r)).toBe(true);
    expect(p.test("/data/keys", r)).toBe(true);
    expect(p.test("/data/keysx/id_rsa", r)).toBe(false);
    expect(r.calls).toContain("/home/u/.ssh");
  });

  it("asks again at each test (no resolution frozen at load)", () => {
    const p = compile("~/.bashrc", LINUX);
    const links: Record<string, string> = {};
    const r = fakeResolver(links);
    expect(p.test("/dotfiles/bashrc", r)).toBe(false);
    links["/home/u/.bashrc"] = "/dotfiles/bashrc";
    expect(p.test("/dotfiles/bashrc", r)).toBe(true);
    expect(p.test("/dotfiles/bashrc/x", r)).toBe(false);
  });

  it("does not call the resolver for name patterns", () => {
    const r = fakeResolver({});
    compile("**/.env", LINUX).test("/x/.env", r);
    expect(r.calls).toEqual([]);
  });
});

describe("rejected patterns", () => {
  const bad: [string, PlatformProfile][] = [
    ["", LINUX],
    ["   ", LINUX],
    ["*", LINUX],
    ["**", LINUX],
    ["**/", LINUX],
    ["/**", LINUX],
    ["/", LINUX],
    ["**/*", LINUX],
    ["**/**", LINUX],
    ["**/*/**", LINUX],
    ["**/*/*", LINUX],
    ["**/**/x", LINUX],
    ["**/a/**/b", LINUX],
    ["~/.ssh/**/id_rsa", LINUX],
    ["/etc/*.conf", LINUX],
    ["~/.ssh/id_*", LINUX],
    ["foo/bar", LINUX],
    ["foo/**", LINUX],
    ["./x", LINUX],
    ["~root/.ssh/**", LINUX],
    ["~/.ssh/", LINUX],
    ["**.env", LINUX],
    ["**/../x", LINUX],
    ["**/a//b", LINUX],
    ["**/[abc", LINUX],
    ["**/x/", LINUX],
    ["C:\\**", WIN32],
    ["c:/**", WIN32],
    ["C:", WIN32],
    ["\\**", WIN32],
    ["**\\", WIN32],
    ["x\\y", WIN32],
    ["~user\\x", WIN32],
    ["\\\\srv\\share", WIN32],
    ["**/a\u0000b", LINUX],
    ["**/\uD800", LINUX],
  ];
  it.each(bad)("rejects %j", (body, profile) => {
    const c = compilePathPattern(body, profile);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.expected).toContain("allowed forms");
  });

  it("says 'does not match every path' for catch-alls", () => {
    for (const body of ["**", "**/", "/**", "*", "**/*"]) {
      const c = compilePathPattern(body, LINUX);
      expect(!c.ok && c.expected).toContain("does not match every path");
    }
  });
});

describe("patterns whose anchor variable is unset", () => {
  it("compile but match nothing, and say why", () => {
    const p = compile("%APPDATA%/Claude/**", LINUX);
    expect(p.inert).toContain("APPDATA");
    expect(p.test("/srv/project/%APPDATA%/Claude/x")).toBe(false);
    const q = compile("$NOPE/.ssh/**", LINUX);
    expect(q.inert).toContain("NOPE");
  });

  it("a variable set to a relative value is an error, not inert", () => {
    const c = compilePathPattern("%REL%/x/**", { ...WIN32, env: { ...WIN32.env, REL: "rel" } });
    expect(c.ok).toBe(false);
    const d = compilePathPattern("%APPDATA%/x/**", { ...LINUX, env: { APPDATA: "/a" } });
    expect(d.ok && (d.pattern as CompiledPathPattern).inert).toContain("APPDATA"); // %X% is not linux syntax
  });

  it("a set variable is not inert", () => {
    const p: PathPattern = compile("%APPDATA%/Claude/**", WIN32);
    expect((p as CompiledPathPattern).inert).toBeUndefined();
  });
});
