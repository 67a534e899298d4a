import { describe, expect, it } from "vitest";
import type { PathResolver, PlatformProfile } from "../../../src/core/paths/api.js";
import type { OwnPath } from "../../../src/core/paths/own-paths.js";
import { loadPolicy } from "../../../src/core/policy/load.js";
import { createSessionJudge } from "../../../src/core/judge/session.js";
import { Planted } from "../../../src/core/judge/planted.js";

// Own files, git's discovery and PATH folders as the session judge applies them (decisions 0067,
// 0068): which verdict wins, which operations count, and what a session remembers.

const PROFILE: PlatformProfile = {
  platform: "linux",
  home: "/h",
  env: { HOME: "/h", PATH: "/opt/bin" },
  cwd: "/w",
};
const policy = (runsLater: string, deny = "[]") =>
  loadPolicy(
    `version: 1\npaths:\n  deny: ${deny}\n  deny_read: ["**/.env"]\n${runsLater}`,
    "p.yaml",
    "0",
    PROFILE,
  );
const BOTH = "runs_later:\n  git_dirs: deny\n  path_folders: confirm\n";

function disk(present: string[] = [], ids: Record<string, string> = {}): PathResolver {
  const set = new Set(present);
  return { realpath: () => undefined, exists: (p) => set.has(p), fileId: (p) => ids[p] };
}
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const write = (path: string) => call("write_file", { path, content: "x" });

describe("runs_later verdicts", () => {
  it("missing means allow; each key gives its own verdict and cites its rule", () => {
    const off = createSessionJudge(policy(""), { profile: PROFILE, resolver: disk(["/opt/bin/git"]) });
    expect(off.judge("tools/call", write("/w/r/.git")).verdict).toBe("allow");
    expect(off.judge("tools/call", write("/opt/bin/git")).verdict).toBe("allow");
    const on = createSessionJudge(policy(BOTH), { profile: PROFILE, resolver: disk(["/opt/bin/git"]) });
    expect(on.judge("tools/call", write("/w/r/.git"))).toMatchObject({
      verdict: "deny",
      rule: "runs_later.git_dirs",
    });
    expect(on.judge("tools/call", write("/opt/bin/git"))).toMatchObject({
      verdict: "confirm",
      rule: "runs_later.path_folders",
    });
  });

  it("a pattern's deny is not replaced, and reads and removals are not git writes", () => {
    const j = createSessionJudge(policy(BOTH, '["**/.git"]'), { profile: PROFILE, resolver: disk() });
    expect(j.judge("tools/call", write("/w/r/.git"))).toMatchObject({ rule: "paths.deny **/.git" });
    const k = createSessionJudge(policy(BOTH), { profile: PROFILE, resolver: disk() });
    expect(k.judge("tools/call", call("read_text_file", { path: "/w/r/.git" })).verdict).toBe("allow");
    expect(k.judge("tools/call", call("delete_directory", { path: "/w/r/.git" })).verdict).toBe("allow");
  });

  it("a folder moved onto a place git keeps a git directory brings its config", () => {
    const j = createSessionJudge(policy(BOTH), { profile: PROFILE, resolver: disk() });
    const d = j.judge(
      "tools/call",
      call("move_file", { source: "/w/prep", destination: "/w/r/.git/worktrees/x" }),
    );
    expect(d).toMatchObject({ verdict: "deny", rule: "runs_later.git_dirs" });
    expect(j.judge("tools/call", call("move_file", { source: "/w/a", destination: "/w/b" })).verdict).toBe(
      "allow",
    );
  });

  it("parallel calls: writes let through count as present, writes refused do not", () => {
    const j = createSessionJudge(policy(BOTH), { profile: PROFILE, resolver: disk() });
    expect(j.judge("tools/call", write("/w/d/HEAD")).verdict).toBe("allow");
    expect(j.judge("tools/call", write("/w/d/objects/x")).verdict).toBe("allow");
    expect(j.judge("tools/call", write("/w/d/refs/x")).verdict).toBe("allow");
    expect(j.judge("tools/call", write("/w/d/config"))).toMatchObject({
      verdict: "deny",
      rule: "runs_later.git_dirs",
    });
    // The refused config was not remembered: HEAD of another folder with only objects and refs stays data.
    const k = createSessionJudge(policy(BOTH, '["**/denied/**"]'), { profile: PROFILE, resolver: disk() });
    expect(k.judge("tools/call", write("/w/denied/config")).verdict).toBe("deny");
    expect(k.judge("tools/call", write("/w/e/objects/x")).verdict).toBe("allow");
  });

  it("one call naming HEAD, objects, refs and config is judged as the set it writes", () => {
    const j = createSessionJudge(policy(BOTH), { profile: PROFILE, resolver: disk() });
    const d = j.judge(
      "tools/call",
      call("save_files", { a: "/w/d/HEAD", b: "/w/d/objects/x", c: "/w/d/refs/x", e: "/w/d/config" }),
    );
    expect(d).toMatchObject({ verdict: "deny", rule: "runs_later.git_dirs" });
    const alone = createSessionJudge(policy(BOTH), { profile: PROFILE, resolver: disk() });
    expect(
      alone.judge("tools/call", call("save_files", { a: "/w/d/objects/x", e: "/w/d/config" })).verdict,
    ).toBe("allow");
  });
});

describe("effectgate's own files", () => {
  const own: OwnPath[] = [
    { what: "the policy in force (--policy)", path: "/w/team.yaml", folder: false, id: "7:7" },
    { what: "effectgate's home folder (EFFECTGATE_HOME)", path: "/w/state", folder: true },
    { what: "effectgate's own program", path: "/opt/eg", folder: true, readable: true },
  ];
  const judge = (resolver = disk()) => createSessionJudge(policy(""), { profile: PROFILE, resolver, own });

  it("reads, writes and moves are denied whatever the policy says, by every name", () => {
    const j = judge(disk([], { "/w/alias.yaml": "7:7" }));
    for (const args of [
      call("read_text_file", { path: "team.yaml" }),
      write("/w/team.yaml"),
      call("read_text_file", { path: "/w/alias.yaml" }),
      call("list_directory", { path: "/w/state/sessions" }),
      call("move_file", { source: "/w", destination: "/tmp/w" }),
    ])
      expect(j.judge("tools/call", args), JSON.stringify(args)).toMatchObject({
        verdict: "deny",
        rule: "effectgate's own files",
      });
  });

  it("a folder above an own path counts only when moved or removed; program files may be read", () => {
    const j = judge();
    expect(j.judge("tools/call", call("list_directory", { path: "/w" })).verdict).toBe("allow");
    expect(j.judge("tools/call", call("read_text_file", { path: "/opt/eg/dist/main.js" })).verdict).toBe(
      "allow",
    );
    expect(j.judge("tools/call", write("/opt/eg/dist/main.js")).verdict).toBe("deny");
    expect(j.judge("tools/call", call("read_text_file", { path: "/w/other.yaml" })).verdict).toBe("allow");
  });

  it("a secret's own deny is kept (the pattern is cited), an unjudgeable one is replaced", () => {
    const j = createSessionJudge(policy(""), {
      profile: PROFILE,
      resolver: disk(),
      own: [{ what: "x", path: "/w/.env", folder: false }],
    });
    expect(j.judge("tools/call", call("read_text_file", { path: "/w/.env" })).rule).toBe(
      "paths.deny_read **/.env",
    );
    const hard: PathResolver = { ...disk(), hasOtherNames: (p) => p === "/w/team.yaml" };
    expect(judge(hard).judge("tools/call", write("/w/team.yaml"))).toMatchObject({
      rule: "effectgate's own files",
    });
  });
});

describe("the session's memory of written paths", () => {
  it("keeps only paths with a name git's discovery reads, and folders above them", () => {
    const p = new Planted("linux");
    p.add("/w/d/objects/x");
    p.add("/w/src/index.ts");
    expect(p.has("/w/d/objects")).toBe(true);
    expect(p.has("/w/d")).toBe(true);
    expect(p.has("/w/d/objects/x")).toBe(true);
    expect(p.has("/w/src/index.ts")).toBe(false);
    expect(p.has("/w/d/refs")).toBe(false);
  });

  it("does not count the write being judged, but does count another write of the same folder", () => {
    const p = new Planted("linux");
    p.add("/w/d/HEAD");
    expect(p.has("/w/d/HEAD", ["/w/d/HEAD"])).toBe(false);
    p.add("/w/d/HEAD");
    expect(p.has("/w/d/HEAD", ["/w/d/HEAD"])).toBe(true);
    expect(new Planted("linux").has("/w/d/HEAD")).toBe(false);
  });
});
