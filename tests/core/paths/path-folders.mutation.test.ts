import { describe, expect, it } from "vitest";
import type { PathResolver, PlatformProfile } from "../../../src/core/paths/api.js";
import { pathFolders, pathFolderWrite } from "../../../src/core/paths/path-folders.js";

const linux = (PATH: string, cwd = "/w"): PlatformProfile => ({
  platform: "linux",
  home: "/h",
  env: { HOME: "/h", PATH },
  cwd,
});
const win = (Path: string): PlatformProfile => ({
  platform: "win32",
  home: "C:\\Users\\u",
  env: { USERPROFILE: "C:\\Users\\u", Path },
  cwd: "C:\\w",
});
function disk(present: string[] = [], links: Record<string, string> = {}): PathResolver {
  const set = new Set(present);
  return { realpath: (p) => links[p], exists: (p) => set.has(p) };
}

describe("the folders on the server's PATH", () => {
  it("keeps absolute entries in order, once each, with ~ expanded; drops empty and relative ones", () => {
    const folders = pathFolders(linux("/h/.local/bin::.:bin:/usr/bin:/usr/bin/:~/go/bin"));
    expect(folders.map((f) => f.lexical)).toEqual(["/h/.local/bin", "/usr/bin", "/h/go/bin"]);
    expect(folders[0]?.entry).toBe("/h/.local/bin");
  });

  it("no PATH, or an empty one, is no folder", () => {
    expect(pathFolders({ ...linux(""), env: { HOME: "/h" } })).toEqual([]);
    expect(pathFolders(linux(""))).toEqual([]);
  });

  it("on Windows: ; separates, quotes are dropped, the name is found in any case", () => {
    const folders = pathFolders(win('C:\\Tools;"C:\\Program Files\\Git\\cmd";rel'));
    expect(folders.map((f) => f.lexical)).toEqual(["C:\\Tools", "C:\\Program Files\\Git\\cmd"]);
  });
});

describe("a write into a PATH folder", () => {
  const p = linux("/h/.local/bin:/opt/bin");
  const folders = pathFolders(p);

  it("overwriting an existing program counts; a new file does not (it is not executable)", () => {
    expect(pathFolderWrite("/opt/bin/git", folders, p, disk(["/opt/bin/git"]))?.what).toBe("entry");
    expect(pathFolderWrite("/opt/bin/new", folders, p, disk())).toBeUndefined();
    // Without a way to ask, assume it exists.
    expect(pathFolderWrite("/opt/bin/new", folders, p, { realpath: () => undefined })?.what).toBe("entry");
  });

  it("deeper files and neighbouring folders are not on PATH", () => {
    expect(pathFolderWrite("/opt/bin/sub/git", folders, p, disk(["/opt/bin/sub/git"]))).toBeUndefined();
    expect(pathFolderWrite("/opt/binx/git", folders, p, disk(["/opt/binx/git"]))).toBeUndefined();
    expect(pathFolderWrite("/opt/git", folders, p, disk(["/opt/git"]))).toBeUndefined();
  });

  it("the folder itself counts; a folder above it only when placed as a whole", () => {
    expect(pathFolderWrite("/opt/bin", folders, p, disk())?.what).toBe("folder");
    expect(pathFolderWrite("/opt", folders, p, disk())).toBeUndefined();
    expect(pathFolderWrite("/opt", folders, p, disk(), true)?.what).toBe("folder");
    expect(pathFolderWrite("/h", folders, p, disk(), true)?.folder.lexical).toBe("/h/.local/bin");
  });

  it("a PATH folder that is a link is also guarded where it points", () => {
    const r = disk(["/real/bin/npm"], { "/opt/bin": "/real/bin" });
    expect(pathFolderWrite("/real/bin/npm", folders, p, r)?.folder.lexical).toBe("/opt/bin");
  });

  it("on Windows every new file counts (PATHEXT runs it), compared without case", () => {
    const w = win("C:\\Tools");
    const wf = pathFolders(w);
    expect(pathFolderWrite("C:\\tools\\git.bat", wf, w, disk())?.what).toBe("entry");
  });

  it("no folders: nothing", () => {
    expect(pathFolderWrite("/opt/bin/git", [], p, disk(["/opt/bin/git"]))).toBeUndefined();
  });
});
