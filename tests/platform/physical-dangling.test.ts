import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../src/core/paths/api.js";
import { canonicalise } from "../../src/core/paths/canonical.js";
import { createFsResolver } from "../../src/platform/resolver.js";
import { call, judgeOf } from "../helpers/judge.js";
import { fakeResolver, LINUX } from "../helpers/profiles.js";

// D9: the kernel cannot take `..` from a dangling link (or a missing name, or a file): the walk
// fails with ENOENT/ENOTDIR, so there is no physical reading; only a server that folds `..`
// first opens anything, and that is the resolved form.

let root: string;
let home: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "eg-dangling-")));
  home = join(root, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(home, "proj"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const profile = (): PlatformProfile => ({
  platform: "linux",
  home,
  env: { HOME: home },
  cwd: join(home, "proj"),
});

describe("physical walk with a fake resolver that knows folders", () => {
  it("has no physical form when the name before `..` is not a folder", () => {
    const links = fakeResolver({ "/srv/project/dang": "/home/u/.ssh/newkey" });
    const r = { ...links, isFolder: (p: string) => p !== "/srv/project/dang" };
    const c = canonicalise("dang/../x", LINUX, r);
    expect(c.ok && c.physical).toBeUndefined();
    // the same link with its target present is walked out of
    const c2 = canonicalise("dang/../x", LINUX, { ...links, isFolder: () => true });
    expect(c2.ok && c2.physical).toBe("/home/u/.ssh/x");
  });
});

describe.runIf(process.platform === "linux")("physical walk on a real file system", () => {
  it("a dangling link before `..`: no physical form, and the write is judged where it lands", () => {
    symlinkSync("../.ssh/newkey", join(home, "proj", "dang"));
    const c = canonicalise("~/proj/dang/../x", profile(), createFsResolver({ ttlMs: 0 }));
    expect(c).toMatchObject({
      ok: true,
      lexical: join(home, "proj", "x"),
      resolved: join(home, "proj", "x"),
    });
    expect(c).not.toHaveProperty("physical");
    const j = judgeOf({ profile: profile(), resolver: createFsResolver({ ttlMs: 0 }) });
    expect(
      j.judge("tools/call", call("write_file", { path: "~/proj/dang/../x", content: "X" })).verdict,
    ).toBe("allow");
  });

  it("a file or a missing name before `..`: no physical form", () => {
    writeFileSync(join(home, "proj", "f"), "");
    for (const p of ["~/proj/f/../x", "~/proj/missing/../x"]) {
      const c = canonicalise(p, profile(), createFsResolver({ ttlMs: 0 }));
      expect(c, p).not.toHaveProperty("physical");
    }
  });

  it("a live link before `..` is still walked, and the reason says where the walk leads", () => {
    mkdirSync(join(home, ".ssh", "sub"));
    symlinkSync("../.ssh/sub", join(home, "proj", "deep"));
    const c = canonicalise("~/proj/deep/../authorized_keys", profile(), createFsResolver({ ttlMs: 0 }));
    expect(c.ok && c.physical).toBe(join(home, ".ssh", "authorized_keys"));
    const j = judgeOf({ profile: profile(), resolver: createFsResolver({ ttlMs: 0 }) });
    const d = j.judge("tools/call", call("write_file", { path: "deep/../authorized_keys", content: "k" }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    expect(d.reason).toBe(
      `write_file would write ${join(home, ".ssh", "authorized_keys")} (where \`..\` after a link in "deep/../authorized_keys" leads), which matches paths.deny ~/.ssh/**`,
    );
  });
});
