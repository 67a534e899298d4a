// Canonical.renamed: a win32 name as written that Windows opens under another name (a trailing
// dot or space, a `:stream`). The judge treats such a write as tainted for paths.deny_if_tainted.
import { describe, expect, it } from "vitest";
import { canonicalise, LEXICAL_ONLY, STEP } from "../../../src/core/paths/canonical.js";
import { LINUX, WIN32 } from "../../helpers/policy.js";

const renamed = (p: string, profile = WIN32): boolean | undefined => {
  const c = canonicalise(p, profile, LEXICAL_ONLY);
  if (!c.ok) throw new Error(c.error);
  return c.renamed;
};

describe("a name Windows opens under another name", () => {
  it.each([
    "C:\\Users\\ada\\proj\\.env.",
    "C:\\Users\\ada\\proj\\.env .",
    "C:\\Users\\ada\\proj \\.env",
    "C:\\Users\\ada\\proj\\.env. .",
    "C:\\Users\\ada\\proj\\.env:secret",
    "C:\\Users\\ada\\proj\\.env::$DATA",
    "C:\\Users\\ada\\proj.\\.env",
    ".env:x",
  ])("%j is renamed", (p) => {
    expect(renamed(p)).toBe(true);
  });

  it.each([
    "C:\\Users\\ada\\proj\\.env",
    "C:\\Users\\ada\\proj\\.env.local",
    "C:\\Users\\ada\\proj\\",
    "C:\\Users\\ada\\proj\\..\\proj\\.\\.env",
    "C:/Users/ada/proj/.env",
    ".env",
  ])("%j is not", (p) => {
    expect(renamed(p)).toBeUndefined();
  });

  it("sees a trailing space effectgate trims only in the reading that does not trim", () => {
    const p = "C:\\Users\\ada\\proj\\.env ";
    expect(renamed(p)).toBeUndefined();
    const untrimmed = canonicalise(p, WIN32, LEXICAL_ONLY, STEP.trim);
    expect(untrimmed).toMatchObject({ ok: true, lexical: "C:\\Users\\ada\\proj\\.env", renamed: true });
  });

  it("is a Windows fact only: the same names on Linux are their own files", () => {
    expect(renamed("/home/ada/proj/.env.", LINUX)).toBeUndefined();
    expect(renamed("/home/ada/proj/.env:x", LINUX)).toBeUndefined();
  });

  it("looks at the string's own names, not the cwd a relative path is placed under", () => {
    expect(renamed(".env", { ...WIN32, cwd: "C:\\Users\\ada\\proj." })).toBeUndefined();
  });
});
