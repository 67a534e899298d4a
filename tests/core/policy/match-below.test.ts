import { describe, expect, it } from "vitest";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { DARWIN, LINUX, load, useTempHome, WIN32 } from "../../helpers/policy.js";

useTempHome();

// matchBelow: which pattern could match a path strictly below a folder because of that folder.
const POLICY = `version: 1
paths:
  deny:
    - "**/.env"
    - "**/.git/hooks/**"
    - "~/.config/systemd/user/**"
    - "~/.bashrc"
    - "**/.git/config"
    - "**/Code/User/profiles/*/settings.json"
    - "**/*/x.json"
    - "**/.github/workflows/**"
  confirm:
    - "**/package.json"
`;

describe("matchBelow on linux", () => {
  const p = load(POLICY, LINUX);
  const rows: Array<[string, string | undefined]> = [
    // anchored: the anchor lies below the folder
    ["/home/ada/.config", "~/.config/systemd/user/**"],
    ["/home/ada/.config/systemd", "~/.config/systemd/user/**"],
    ["/home/ada/.config/systemd/user", "~/.config/systemd/user/**"], // the subtree's own folder
    ["/home/ada", "~/.config/systemd/user/**"],
    ["/home", "~/.config/systemd/user/**"],
    ["/", "~/.config/systemd/user/**"],
    ["/home/ada/.config-old", undefined],
    ["/home/ada/.configs", undefined],
    // name sequences that begin with the folder's last names
    ["/x/repo/.git", "**/.git/hooks/**"],
    ["/x/repo/.git/hooks", "**/.git/hooks/**"], // inside the subtree
    ["/x/repo/.git/hooks/pre-commit.d", "**/.git/hooks/**"],
    ["/x/a/Code/User", "**/Code/User/profiles/*/settings.json"],
    ["/x/a/Code/User/profiles", "**/Code/User/profiles/*/settings.json"],
    ["/x/a/Code/User/profiles/p1", "**/Code/User/profiles/*/settings.json"],
    ["/x/.github", "**/.github/workflows/**"],
    // names any folder may hold are never below it
    ["/x/src", undefined],
    ["/x/project", undefined],
    ["/x/.github-old", undefined],
    ["/x/repo/git", undefined],
    ["/x/repo/.git-old", undefined],
    ["/x/a/User", undefined], // the sequence cannot begin at User
    ["/x/a/.env", undefined], // a file name pattern names the path itself, not what is below
  ];
  it.each(rows)("deny below %s is %s", (dir, expected) => {
    expect(p.matchBelow("deny", dir)).toBe(expected);
  });

  it("keeps list order: the first pattern that is below wins", () => {
    expect(p.matchBelow("deny", "/x/.git")).toBe("**/.git/hooks/**");
    const reordered = load(
      'version: 1\npaths:\n  deny: ["**/.git/config", "**/.git/hooks/**"]\n',
      LINUX,
    );
    expect(reordered.matchBelow("deny", "/x/.git")).toBe("**/.git/config");
  });

  it("a FILE pattern is strictly below: ~/.bashrc is below ~ but not below itself", () => {
    const only = load('version: 1\npaths:\n  deny: ["~/.bashrc"]\n', LINUX);
    expect(only.matchBelow("deny", "/home/ada")).toBe("~/.bashrc");
    expect(only.matchBelow("deny", "/home/ada/.bashrc")).toBeUndefined();
    expect(only.matchPath("deny", "/home/ada/.bashrc")).toBe("~/.bashrc");
  });

  it("a bare * overlapping the folder does not make every folder a match", () => {
    const only = load('version: 1\npaths:\n  deny: ["**/*/x.json", "**/*/.git/config"]\n', LINUX);
    expect(only.matchBelow("deny", "/x/anything")).toBeUndefined();
    expect(only.matchBelow("deny", "/x/anything/.git")).toBe("**/*/.git/config");
  });

  it("does not fold case on linux", () => {
    expect(p.matchBelow("deny", "/x/repo/.GIT")).toBeUndefined();
    expect(p.matchBelow("deny", "/home/ada/.CONFIG")).toBeUndefined();
  });

  it("asks per list, and a list with nothing below answers undefined", () => {
    expect(p.matchBelow("confirm", "/x/repo")).toBeUndefined();
    expect(p.matchBelow("deny_read", "/home/ada")).toBeUndefined();
  });

  it("an anchor reached through a symlink: the real anchor below the folder counts", () => {
    // ~/.config is a link to /data/cfg: moving a folder onto /data/cfg plants ~/.config/systemd.
    const resolver: PathResolver = {
      realpath: (a) => (a.startsWith("/home/ada/.config") ? a.replace("/home/ada/.config", "/data/cfg") : a),
    };
    expect(p.matchBelow("deny", "/data/cfg")).toBeUndefined();
    expect(p.matchBelow("deny", "/data/cfg", resolver)).toBe("~/.config/systemd/user/**");
    expect(p.matchBelow("deny", "/data/other", resolver)).toBeUndefined();
  });
});

describe("matchBelow folds per platform", () => {
  it("darwin: case and NFD spellings of the folder", () => {
    const p = load(POLICY, DARWIN);
    expect(p.matchBelow("deny", "/Users/ada/.CONFIG")).toBe("~/.config/systemd/user/**");
    expect(p.matchBelow("deny", "/x/repo/.Git")).toBe("**/.git/hooks/**");
    const nfd = load('version: 1\npaths:\n  deny: ["**/Caf\u00e9/hooks/**"]\n', DARWIN);
    expect(nfd.matchBelow("deny", "/x/Cafe\u0301")).toBe("**/Caf\u00e9/hooks/**");
  });

  it("win32: backslashes, drive letters and case", () => {
    const p = load(POLICY, WIN32);
    expect(p.matchBelow("deny", "C:\\Users\\ada\\.config")).toBe("~/.config/systemd/user/**");
    expect(p.matchBelow("deny", "c:\\USERS\\ADA")).toBe("~/.config/systemd/user/**");
    expect(p.matchBelow("deny", "D:\\Users\\ada")).toBeUndefined();
    expect(p.matchBelow("deny", "C:\\work\\repo\\.GIT")).toBe("**/.git/hooks/**");
    expect(p.matchBelow("deny", "C:\\work\\src")).toBeUndefined();
  });

  it("an anchor whose variable is unset here is below nothing", () => {
    const p = load('version: 1\npaths:\n  deny: ["%APPDATA%/pip/**"]\n', LINUX);
    expect(p.matchBelow("deny", "/")).toBeUndefined();
    const w = load('version: 1\npaths:\n  deny: ["%APPDATA%/pip/**"]\n', WIN32);
    expect(w.matchBelow("deny", "C:\\Users\\ada\\AppData")).toBe("%APPDATA%/pip/**");
  });
});
