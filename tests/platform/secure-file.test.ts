import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPrivateFile, ensurePrivateDir, realFileIo } from "../../src/platform/secure-file.js";
import { dirSddl, fileSddl } from "../../src/platform/windows-acl.js";
import { useTempHome } from "../helpers/log.js";

const root = useTempHome();

describe("windows ACL strings", () => {
  const sid = "S-1-5-21-1004336348-1177238915-682003330-1001";
  it("builds a protected, inheritable owner-only DACL for folders and a plain one for files", () => {
    expect(dirSddl(sid)).toBe(`D:P(A;OICI;FA;;;${sid})`);
    expect(fileSddl(sid)).toBe(`D:P(A;;FA;;;${sid})`);
  });
  it("refuses anything that is not a SID, so nothing can be spliced into the SDDL", () => {
    for (const bad of ["", "WD", "S-1-5-21-1)(A;;FA;;;WD", "s-1-5-32-544", "S-1"]) {
      expect(() => fileSddl(bad)).toThrow(/expected a SID/);
    }
  });
  it("loads koffi only inside a function, never on import", () => {
    const src = (name: string) =>
      readFileSync(join(import.meta.dirname, "..", "..", "src", "platform", name), "utf8");
    const acl = src("windows-acl.ts");
    expect(acl).not.toMatch(/^\s*import[^;]*["']koffi["']/m);
    expect(acl).not.toMatch(/^(?:const|let|var)[^\n]*koffi/m); // nothing at module level
    expect(acl).toMatch(/function bind\(\)[\s\S]*loadKoffi\(\)/);
    // The loader requires it only when called.
    expect(src("koffi.ts")).toMatch(
      /export function loadKoffi\([^\n]*= createRequire\(import\.meta\.url\)\)/,
    );
    // After importing the module here (on Linux), koffi has not been required.
    const cache = createRequire(import.meta.url).cache;
    expect(Object.keys(cache).filter((k) => /[\\/]koffi[\\/]/.test(k))).toEqual([]);
  });
});

describe("owner-only files and folders", () => {
  it("refuses a folder path that is a file", () => {
    const f = join(root(), "f");
    writeFileSync(f, "");
    expect(() => ensurePrivateDir(f)).toThrow(/expected a folder, got a file/);
  });

  it("tightens the folder it creates even under a umask that strips owner bits", () => {
    const calls: string[] = [];
    const dir = join(root(), "a", "b");
    const io = {
      ...realFileIo,
      mkdirSync: (p: string) => void mkdirSync(p, { recursive: true, mode: 0o500 }),
    };
    const res = ensurePrivateDir(dir, {
      io: { ...io, chmodSync: (p, m) => (calls.push(p), realFileIo.chmodSync(p, m)) },
      platform: "linux",
    });
    expect(res).toEqual({ created: true, warning: null });
    expect(calls).toEqual([dir]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("never reuses an existing file or follows a link planted at the log's name", () => {
    const dir = join(root(), "d");
    ensurePrivateDir(dir);
    const target = join(root(), "target");
    writeFileSync(target, "precious");
    symlinkSync(target, join(dir, "planted.jsonl"));
    expect(() => createPrivateFile(join(dir, "planted.jsonl"))).toThrow(/EEXIST/);
    writeFileSync(join(dir, "existing.jsonl"), "");
    expect(() => createPrivateFile(join(dir, "existing.jsonl"))).toThrow(/EEXIST/);
    const fd = createPrivateFile(join(dir, "new.jsonl"));
    realFileIo.closeSync(fd);
    expect(statSync(join(dir, "new.jsonl")).mode & 0o777).toBe(0o600);
  });
});
