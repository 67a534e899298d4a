import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KOFFI_INSTALL, KOFFI_VERSION, loadKoffi } from "../../src/platform/koffi.js";

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

const notFound = (): never => {
  throw Object.assign(new Error("Cannot find module 'koffi'"), { code: "MODULE_NOT_FOUND" });
};

describe("koffi, the Windows-only FFI library", () => {
  it("is no dependency npm installs: only an optional peer, at the version the install hint names", () => {
    expect(pkg.dependencies?.koffi).toBeUndefined();
    expect(pkg.optionalDependencies?.koffi).toBeUndefined();
    expect(pkg.peerDependencies?.koffi).toBe(KOFFI_VERSION);
    expect(pkg.peerDependenciesMeta?.koffi?.optional).toBe(true);
    expect(KOFFI_INSTALL).toBe(`npm install -g koffi@${KOFFI_VERSION}`);
  });

  it("names the command that installs it when it is missing", () => {
    expect(() => loadKoffi(notFound)).toThrow(
      `Windows file permissions need koffi, which is not installed; install it with: npm install -g koffi@${KOFFI_VERSION}`,
    );
  });

  it("passes on any other failure unchanged", () => {
    const broken = (): never => {
      throw new Error("koffi: cannot load its native module");
    };
    expect(() => loadKoffi(broken)).toThrow("koffi: cannot load its native module");
  });

  it("returns what the loader gives", () => {
    const fake = { load: () => undefined };
    expect(loadKoffi((id) => (id === "koffi" ? fake : notFound()))).toBe(fake);
  });
});
