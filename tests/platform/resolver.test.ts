import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalise } from "../../src/core/paths/canonical.js";
import { compilePathPattern } from "../../src/core/paths/pattern.js";
import { currentProfile } from "../../src/platform/profile.js";
import { createFsResolver } from "../../src/platform/resolver.js";

// Real file-system behaviour of the production resolver, in a fresh temp folder per test.

let root: string;
const saved = { HOME: process.env.HOME, EFFECTGATE_HOME: process.env.EFFECTGATE_HOME };

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "eg-paths-")));
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "eghome"));
  process.env.HOME = join(root, "home");
  process.env.EFFECTGATE_HOME = join(root, "eghome");
});

afterEach(() => {
  process.env.HOME = saved.HOME;
  process.env.EFFECTGATE_HOME = saved.EFFECTGATE_HOME;
  if (saved.HOME === undefined) delete process.env.HOME;
  if (saved.EFFECTGATE_HOME === undefined) delete process.env.EFFECTGATE_HOME;
  rmSync(root, { recursive: true, force: true });
});

describe("createFsResolver", () => {
  it("returns an existing plain path unchanged", () => {
    writeFileSync(join(root, "f"), "x");
    expect(createFsResolver().realpath(join(root, "f"))).toBe(join(root, "f"));
  });

  it("resolves a symlinked folder and re-attaches a missing tail", () => {
    mkdirSync(join(root, "data", "keys"), { recursive: true });
    symlinkSync(join(root, "data", "keys"), join(root, "home", ".ssh"));
    const r = createFsResolver();
    expect(r.realpath(join(root, "home", ".ssh", "id_rsa"))).toBe(join(root, "data", "keys", "id_rsa"));
    expect(r.realpath(join(root, "home", ".ssh", "new", "deep", "x"))).toBe(
      join(root, "data", "keys", "new", "deep", "x"),
    );
  });

  it("follows a relative symlink", () => {
    mkdirSync(join(root, "real"));
    symlinkSync("../real", join(root, "home", "link"));
    expect(createFsResolver().realpath(join(root, "home", "link", "a"))).toBe(join(root, "real", "a"));
  });

  it("follows a dangling link to where a write would land", () => {
    symlinkSync(join(root, "home", ".bashrc"), join(root, "innocent.txt"));
    expect(createFsResolver().realpath(join(root, "innocent.txt"))).toBe(join(root, "home", ".bashrc"));
  });

  it("follows a chain of dangling links whose targets' folders are also missing", () => {
    symlinkSync(join(root, "b"), join(root, "a"));
    symlinkSync(join(root, "nowhere", "c"), join(root, "b"));
    expect(createFsResolver().realpath(join(root, "a"))).toBe(join(root, "nowhere", "c"));
    expect(createFsResolver().realpath(join(root, "a", "x"))).toBe(join(root, "nowhere", "c", "x"));
  });

  it("follows a dangling link in the middle of the path", () => {
    symlinkSync(join(root, "target-dir"), join(root, "d"));
    expect(createFsResolver().realpath(join(root, "d", "f"))).toBe(join(root, "target-dir", "f"));
  });

  it("says nothing about a link loop", () => {
    symlinkSync(join(root, "loop2"), join(root, "loop1"));
    symlinkSync(join(root, "loop1"), join(root, "loop2"));
    expect(createFsResolver().realpath(join(root, "loop1", "x"))).toBeUndefined();
  });

  it("treats a file in the middle as the end of what exists", () => {
    writeFileSync(join(root, "file"), "x");
    expect(createFsResolver().realpath(join(root, "file", "child"))).toBe(join(root, "file", "child"));
  });

  it("reuses answers within the lifetime and asks again after it", () => {
    let t = 0;
    const r = createFsResolver({ ttlMs: 1000, now: () => t });
    const p = join(root, "home", "later");
    expect(r.realpath(p)).toBe(p);
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), p);
    expect(r.realpath(p)).toBe(p); // cached
    t = 1000;
    expect(r.realpath(p)).toBe(join(root, "elsewhere"));
  });

  it("forgets paths when told, but keeps a policy anchor's answer for its lifetime", () => {
    let t = 0;
    const r = createFsResolver({ ttlMs: 1000, now: () => t });
    const p = join(root, "home", "moved");
    expect(r.realpath(p)).toBe(p);
    expect(r.anchorRealpath?.(p)).toBe(p);
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), p);
    r.forget();
    // A path a call names is asked afresh after a call that may have changed files (0012)...
    expect(r.realpath(p)).toBe(join(root, "elsewhere"));
    // ...an anchor is not: moving it needs a call the anchor's own pattern refuses.
    expect(r.anchorRealpath?.(p)).toBe(p);
    t = 1000;
    expect(r.anchorRealpath?.(p)).toBe(join(root, "elsewhere"));
  });

  it("says which anchors of a list moved, and asks again once the oldest answer it used expires", () => {
    let t = 0;
    const r = createFsResolver({ ttlMs: 1000, now: () => t });
    const a = join(root, "home", "a");
    const b = join(root, "home", "b");
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), a);
    expect(r.anchorRealpath?.(b)).toBe(b); // asked at 0
    t = 500;
    const list = [a, b];
    expect(r.movedAnchors?.(list)).toEqual([0]);
    symlinkSync(join(root, "elsewhere"), b);
    r.forget(); // anchors are kept, as anchorRealpath keeps them
    expect(r.movedAnchors?.(list)).toEqual([0]);
    // b's answer dates from 0: at 1000 the list is asked again, although a's is from 500.
    t = 1000;
    expect(r.movedAnchors?.(list)).toEqual([0, 1]);
  });

  it("patterns ask the resolver about their anchor as an anchor", () => {
    const asked: string[] = [];
    const profile = { ...currentProfile(root), platform: "linux" as const, home: join(root, "home") };
    const p = compilePathPattern("~/.ssh/**", profile);
    const resolver = {
      realpath: (x: string) => (asked.push(`path ${x}`), x),
      anchorRealpath: (x: string) => (asked.push(`anchor ${x}`), join(root, "keys")),
    };
    expect(p.ok && p.pattern.test(join(root, "keys", "id_rsa"), resolver)).toBe(true);
    expect(asked).toEqual([`anchor ${join(root, "home", ".ssh")}`]);
  });
});

describe("canonicalise + patterns with the real resolver", () => {
  it("a write through a symlink into ~/.ssh is caught by ~/.ssh/**", () => {
    mkdirSync(join(root, "home", ".ssh"));
    symlinkSync(join(root, "home", ".ssh"), join(root, "work-link"));
    const profile = { ...currentProfile(root), platform: "linux" as const, home: join(root, "home") };
    const resolver = createFsResolver();
    const c = canonicalise("work-link/authorized_keys", profile, resolver);
    expect(c.ok && c.resolved).toBe(join(root, "home", ".ssh", "authorized_keys"));
    const p = compilePathPattern("~/.ssh/**", profile);
    expect(p.ok && c.ok && p.pattern.test(c.resolved)).toBe(true);
    expect(p.ok && c.ok && p.pattern.test(c.lexical)).toBe(false);
  });

  it("a symlinked ~/.ssh anchor still guards its target", () => {
    mkdirSync(join(root, "keys"));
    symlinkSync(join(root, "keys"), join(root, "home", ".ssh"));
    const profile = { ...currentProfile(root), platform: "linux" as const, home: join(root, "home") };
    const p = compilePathPattern("~/.ssh/**", profile);
    expect(p.ok && p.pattern.test(join(root, "keys", "id_rsa"), createFsResolver())).toBe(true);
    expect(p.ok && p.pattern.test(join(root, "keys", "id_rsa"))).toBe(false);
  });
});

describe("currentProfile", () => {
  it("reads home, env and cwd from this process", () => {
    const p = currentProfile("/srv/x");
    expect(p.home).toBe(join(root, "home"));
    expect(p.env.HOME).toBe(join(root, "home"));
    expect(p.cwd).toBe("/srv/x");
    expect(["linux", "darwin", "win32"]).toContain(p.platform);
    expect(currentProfile().cwd).toBe(process.cwd());
  });
});
