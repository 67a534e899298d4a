import { describe, expect, it } from "vitest";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { type OwnPath, ownFileSame, ownPathAt } from "../../../src/core/paths/own-paths.js";

const OWN: OwnPath[] = [
  { what: "the policy in force (--policy)", path: "/p/team.yaml", folder: false, id: "1:42" },
  { what: "effectgate's home folder (EFFECTGATE_HOME)", path: "/h/state", real: "/data/state", folder: true },
];
const ids = (table: Record<string, string>): PathResolver => ({
  realpath: () => undefined,
  fileId: (p) => table[p],
});

describe("effectgate's own paths by spelling", () => {
  it("a file only itself; a folder itself and everything below", () => {
    expect(ownPathAt("/p/team.yaml", OWN, "linux")?.own.what).toMatch(/policy/);
    expect(ownPathAt("/p/team.yaml/x", OWN, "linux")).toBeUndefined();
    expect(ownPathAt("/p/team.yam", OWN, "linux")).toBeUndefined();
    expect(ownPathAt("/h/state", OWN, "linux")?.how).toBe("at");
    expect(ownPathAt("/h/state/sessions/a.jsonl", OWN, "linux")?.how).toBe("at");
    expect(ownPathAt("/h/state-old/x", OWN, "linux")).toBeUndefined();
  });

  it("also where the folder really is", () => {
    expect(ownPathAt("/data/state/taint/m", OWN, "linux")?.own.path).toBe("/h/state");
  });

  it("a folder above an own path counts only for moves and removals (holders)", () => {
    expect(ownPathAt("/h", OWN, "linux")).toBeUndefined();
    expect(ownPathAt("/h", OWN, "linux", true)?.how).toBe("above");
    expect(ownPathAt("/p", OWN, "linux", true)?.how).toBe("above");
    expect(ownPathAt("/q", OWN, "linux", true)).toBeUndefined();
  });

  it("folds case where the platform does", () => {
    const win: OwnPath[] = [{ what: "w", path: "C:\\P\\team.yaml", folder: false }];
    expect(ownPathAt("c:\\p\\TEAM.yaml", win, "win32")).toBeDefined();
    expect(
      ownPathAt("/P/TEAM.yaml", [{ what: "d", path: "/p/team.yaml", folder: false }], "darwin"),
    ).toBeDefined();
    expect(
      ownPathAt("/P/TEAM.yaml", [{ what: "l", path: "/p/team.yaml", folder: false }], "linux"),
    ).toBeUndefined();
  });

  it("no own paths: nothing", () => {
    expect(ownPathAt("/p/team.yaml", [], "linux")).toBeUndefined();
  });
});

describe("effectgate's own files by identity", () => {
  it("another name with the same device and inode is the file", () => {
    expect(ownFileSame("/x/copy.yaml", OWN, ids({ "/x/copy.yaml": "1:42" }))?.how).toBe("same-file");
    expect(ownFileSame("/x/other.yaml", OWN, ids({ "/x/other.yaml": "1:43" }))).toBeUndefined();
    expect(ownFileSame("/x/missing", OWN, ids({}))).toBeUndefined();
  });

  it("without ids, or a resolver that cannot tell, nothing is asked", () => {
    let asked = 0;
    const r: PathResolver = { realpath: () => undefined, fileId: () => (asked++, "1:42") };
    expect(ownFileSame("/x", [{ what: "f", path: "/f", folder: true }], r)).toBeUndefined();
    expect(asked).toBe(0);
    expect(ownFileSame("/x", OWN, { realpath: () => undefined })).toBeUndefined();
  });
});
