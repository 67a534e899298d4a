import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalise } from "../../src/core/paths/canonical.js";
import { createFsResolver, unicodeEquivalentPath } from "../../src/platform/resolver.js";
import { call, judgeOf, PROFILE } from "../helpers/judge.js";

// D4: the reference filesystem server, when realpath says ENOENT, replaces each missing name by
// the existing entry with the same NFC form. unicodeEquivalentPath() walks the same way, so the
// judge sees the folder that server writes into.

const NFC = "jos\u00e9";
const NFD = "jose\u0301";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "eg-unicode-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.runIf(process.platform === "linux")("unicodeEquivalentPath", () => {
  it("maps an NFD spelling to the existing NFC folder, and the missing tail as written", () => {
    mkdirSync(join(root, NFC, ".ssh"), { recursive: true });
    expect(unicodeEquivalentPath(join(root, NFD, ".ssh", "new"))).toBe(join(root, NFC, ".ssh", "new"));
    expect(unicodeEquivalentPath(join(root, NFD))).toBe(join(root, NFC));
  });

  it("maps an NFC spelling to an existing NFD folder, and a KELVIN SIGN to K", () => {
    mkdirSync(join(root, NFD));
    mkdirSync(join(root, "Keys"));
    expect(unicodeEquivalentPath(join(root, NFC, "x"))).toBe(join(root, NFD, "x"));
    expect(unicodeEquivalentPath(join(root, "\u212Aeys", "k"))).toBe(join(root, "Keys", "k"));
  });

  it("is undefined when nothing is replaced: exact names, no equivalent, or two of them", () => {
    mkdirSync(join(root, NFC));
    expect(unicodeEquivalentPath(join(root, NFC, "x"))).toBeUndefined();
    expect(unicodeEquivalentPath(join(root, "caf\u00e9", "x"))).toBeUndefined();
    mkdirSync(join(root, "two"));
    mkdirSync(join(root, "two", NFC));
    mkdirSync(join(root, "two", NFD));
    // U+0341 COMBINING ACUTE TONE MARK: a third spelling of é; both folders match it.
    expect(unicodeEquivalentPath(join(root, "two", "jose\u0341", "x"))).toBeUndefined();
    expect(unicodeEquivalentPath(join(root, "jose\u0341", "x"))).toBe(join(root, NFC, "x"));
    writeFileSync(join(root, "file"), "");
    expect(unicodeEquivalentPath(join(root, "file", NFD))).toBeUndefined();
  });

  it("walks through links in the prefix", () => {
    mkdirSync(join(root, "real", NFC), { recursive: true });
    symlinkSync(join(root, "real"), join(root, "ln"));
    expect(unicodeEquivalentPath(join(root, "ln", NFD, "a"))).toBe(join(root, "ln", NFC, "a"));
  });

  it("canonicalise lists it, and the judge refuses the NFD spelling of a protected home", () => {
    const home = join(root, NFC);
    mkdirSync(join(home, ".ssh"), { recursive: true });
    const c = canonicalise(join(root, NFD, ".ssh", "id_rsa"), PROFILE, createFsResolver());
    expect(c.ok && c.equivalents).toContain(join(home, ".ssh", "id_rsa"));
    const profile = { ...PROFILE, home, env: { HOME: home }, cwd: root };
    const j = judgeOf({ profile, resolver: createFsResolver({ ttlMs: 0 }), bases: [root] });
    const d = j.judge("tools/call", call("read_text_file", { path: `${NFD}/.ssh/id_rsa` }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny_read ~/.ssh/id_rsa" });
    expect(d.reason).toContain("(if the server matches names by their NFC form)");
  });
});
