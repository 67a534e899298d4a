import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasEarlierSession } from "../../src/log/earlier-session.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(files: string[]): string {
  const d = mkdtempSync(join(tmpdir(), "eg-earlier-"));
  dirs.push(d);
  for (const f of files) writeFileSync(join(d, f), "");
  return d;
}

describe("whether a server had a session before", () => {
  it("finds a first part named for the server, by its sanitised name", () => {
    const d = folder(["20261130T101209.123Z-0123456789abcdef-my_fs.jsonl"]);
    expect(hasEarlierSession(d, "my fs")).toBe(true);
    expect(hasEarlierSession(d, "my_fs")).toBe(true);
    expect(hasEarlierSession(d, "git")).toBe(false);
    expect(hasEarlierSession(d, null)).toBe(false);
  });

  it("tells unnamed sessions apart, and ignores files it did not write", () => {
    const d = folder(["20261130T101209.123Z-0123456789abcdef.jsonl", "notes.txt", "fs.jsonl"]);
    expect(hasEarlierSession(d, null)).toBe(true);
    expect(hasEarlierSession(d, "fs")).toBe(false);
  });

  it("counts a folder that does not exist or cannot be listed as holding none", () => {
    const d = folder([]);
    expect(hasEarlierSession(join(d, "missing"), "fs")).toBe(false);
    const file = join(d, "a-file");
    writeFileSync(file, "");
    expect(hasEarlierSession(file, "fs")).toBe(false);
    mkdirSync(join(d, "empty"));
    expect(hasEarlierSession(join(d, "empty"), null)).toBe(false);
  });
});
