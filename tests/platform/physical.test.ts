import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PathResolver, PlatformProfile } from "../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY } from "../../src/core/paths/canonical.js";
import { createFsResolver } from "../../src/platform/resolver.js";
import { DARWIN, fakeResolver, LINUX, WIN32 } from "../helpers/profiles.js";

// `..` after a link: the kernel follows the link first, then steps to the parent of its target.

function ok(input: string, profile: PlatformProfile, resolver: PathResolver) {
  const c = canonicalise(input, profile, resolver);
  if (!c.ok) throw new Error(`${JSON.stringify(input)} refused: ${c.error}`);
  return c;
}

describe("physical form with a fake resolver", () => {
  it("steps out of a link's target, not out of the folder holding the link (linux)", () => {
    const r = fakeResolver({ "/srv/project/deep": "/home/u/.ssh/sub" });
    const c = ok("deep/../authorized_keys", LINUX, r);
    expect(c.lexical).toBe("/srv/project/authorized_keys");
    expect(c.resolved).toBe("/srv/project/authorized_keys");
    expect(c.physical).toBe("/home/u/.ssh/authorized_keys");
  });

  it("follows links met after an earlier `..` too", () => {
    const r = fakeResolver({ "/srv/a": "/x/y/z", "/x/y/l": "/secret/in" });
    expect(ok("/srv/a/../l/../k", LINUX, r).physical).toBe("/secret/k");
  });

  it("stays at the root when `..` climbs above it", () => {
    const r = fakeResolver({ "/srv/l": "/" });
    const c = ok("/srv/l/../../../etc/passwd", LINUX, r);
    expect(c.physical ?? c.resolved).toBe("/etc/passwd");
  });

  it("asks the resolver once for a path without `..` and leaves physical out", () => {
    const r = fakeResolver({ "/srv/project/deep": "/home/u/.ssh/sub" });
    const c = ok("deep/./x", LINUX, r);
    expect(c.physical).toBeUndefined();
    expect(c.resolved).toBe("/home/u/.ssh/sub/x");
    expect(r.calls).toEqual(["/srv/project/deep/x"]);
  });

  it("leaves physical out when it equals resolved", () => {
    const r = fakeResolver({ "/srv/project/link": "/srv/project/real" });
    const c = ok("/srv/project/a/../link/x", LINUX, r);
    expect(c.resolved).toBe("/srv/project/real/x");
    expect(c.physical).toBeUndefined();
  });

  it("walks win32 names, streams and trailing dots included", () => {
    const r = fakeResolver({ "C:\\src\\app\\deep": "C:\\Users\\u\\.ssh\\sub" }, "\\");
    expect(ok("deep\\..\\authorized_keys", WIN32, r).physical).toBe("C:\\Users\\u\\.ssh\\authorized_keys");
    expect(ok("deep.\\..::$DATA\\k", WIN32, r).physical).toBe("C:\\Users\\u\\.ssh\\k");
    expect(ok("D:/l/../x", WIN32, fakeResolver({ "D:\\l": "C:\\Users\\u\\a" }, "\\")).physical).toBe(
      "C:\\Users\\u\\x",
    );
  });

  it("is NFC on darwin", () => {
    const r = fakeResolver({ "/Users/u/l": "/Users/u/Cafe\u0301/in" });
    expect(ok("/Users/u/l/../x", DARWIN, r).physical).toBe("/Users/u/Caf\u00e9/x");
  });

  it("falls back to the spelled names where the resolver cannot say", () => {
    expect(ok("/a/b/../c", LINUX, { realpath: () => undefined }).physical).toBeUndefined();
  });
});

// Without links the kernel's walk and the lexical fold agree, so no physical form appears.
const seg = fc.constantFrom("a", "b", "..", ".", "", "c d", "~", "x:y");
describe("properties", () => {
  it.each([LINUX, DARWIN, WIN32].map((p) => [p.platform, p] as const))(
    "no links, no physical form (%s)",
    (_n, profile) => {
      const identity: PathResolver = { realpath: (p) => p };
      fc.assert(
        fc.property(fc.array(seg, { maxLength: 8 }), fc.boolean(), (segs, absolute) => {
          const sep = profile.platform === "win32" ? "\\" : "/";
          const input = (absolute ? sep : "") + segs.join(sep);
          for (const r of [LEXICAL_ONLY, identity]) {
            const c = canonicalise(input, profile, r);
            if (c.ok) expect(c.physical, input).toBeUndefined();
          }
        }),
        { numRuns: 500 },
      );
    },
  );
});

let root: string;
const saved = { HOME: process.env.HOME, EFFECTGATE_HOME: process.env.EFFECTGATE_HOME };
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "eg-physical-")));
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

const profileAt = (cwd: string): PlatformProfile => ({
  platform: "linux",
  home: join(root, "home"),
  env: { HOME: join(root, "home") },
  cwd,
});

describe.runIf(process.platform === "linux")("physical form on a real file system", () => {
  it("project/deep -> ~/.ssh/sub: deep/../authorized_keys is ~/.ssh/authorized_keys", () => {
    const home = join(root, "home");
    mkdirSync(join(home, ".ssh", "sub"), { recursive: true });
    mkdirSync(join(home, "project"));
    symlinkSync(join(home, ".ssh", "sub"), join(home, "project", "deep"));
    const c = ok("~/project/deep/../authorized_keys", profileAt(join(home, "project")), createFsResolver());
    expect(c.lexical).toBe(join(home, "project", "authorized_keys"));
    expect(c.physical).toBe(join(home, ".ssh", "authorized_keys"));
  });

  it("/proc/self/cwd/../.bashrc is the cwd's parent's .bashrc", () => {
    const c = ok("/proc/self/cwd/../.bashrc", profileAt("/"), createFsResolver());
    const expected = join(dirname(realpathSync(process.cwd())), ".bashrc");
    expect(c.physical ?? c.resolved).toBe(expected);
    expect(c.lexical).toBe("/proc/self/.bashrc");
  });

  // The kernel itself is the reference: realpath(3) walks `..` physically, for paths that exist.
  it("agrees with realpath(3) on random walks through links", () => {
    const t = join(root, "t");
    mkdirSync(join(t, "a", "b", "c"), { recursive: true });
    mkdirSync(join(t, "d", "e"), { recursive: true });
    writeFileSync(join(t, "d", "e", "f"), "x");
    symlinkSync(join(t, "d", "e"), join(t, "a", "l1"));
    symlinkSync("../../d", join(t, "a", "b", "l2"));
    symlinkSync("a/b", join(t, "l3"));
    const resolver = createFsResolver({ ttlMs: 0 });
    const names = fc.constantFrom("a", "b", "c", "d", "e", "f", "l1", "l2", "l3", "..", ".");
    fc.assert(
      fc.property(fc.array(names, { minLength: 1, maxLength: 7 }), (segs) => {
        const input = `${t}/${segs.join("/")}`;
        let real: string;
        try {
          real = realpathSync.native(input);
        } catch {
          return; // the kernel has no answer for a path that does not exist
        }
        const c = ok(input, profileAt(t), resolver);
        expect(c.physical ?? c.resolved, input).toBe(real);
      }),
      { numRuns: 400 },
    );
  });
});
