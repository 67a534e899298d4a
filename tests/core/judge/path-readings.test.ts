import { describe, expect, it } from "vitest";
import type { Canonicalise } from "../../../src/core/judge/judge-effect.js";
import { createSessionJudge } from "../../../src/core/judge/session.js";
import { canonicalise, LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";
import { call, judgeOf, PROFILE, policyOf } from "../../helpers/judge.js";

// Decision 0061: every reading a server may take of a path string is judged, the strictest
// deciding. The reference filesystem server (allowed `~` here: bases) trims nothing, expands no
// variable and decodes no file: URI, so each of these is a relative path to it.

const fromHome = judgeOf({ bases: ["/home/user"] });
const canonicals = (d: { effects: Array<{ canonical?: string }> }) => d.effects.map((e) => e.canonical);

describe("spellings effectgate interprets and a server may not", () => {
  it("D1: leading whitespace, judged untrimmed too, from the cwd and every base", () => {
    const d = fromHome.judge("tools/call", call("write_file", { path: " /../.bashrc", content: "x" }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.bashrc" });
    expect(d.reason).toBe(
      "write_file would write /home/user/.bashrc (if the server does not trim whitespace), which matches paths.deny ~/.bashrc",
    );
    // Each reading is listed, the deciding one first: trimmed, then untrimmed from the cwd and from ~.
    expect(canonicals(d)).toEqual(["/home/user/.bashrc", "/.bashrc", "/home/user/project/.bashrc"]);
    const read = fromHome.judge("tools/call", call("read_text_file", { path: " /../.ssh/id_rsa" }));
    expect(read).toMatchObject({ verdict: "deny", rule: "paths.deny_read ~/.ssh/id_rsa" });
    // Without bases, the untrimmed reading from a cwd of ~ is the same file.
    const atHome = judgeOf({ profile: { ...PROFILE, cwd: "/home/user" } });
    expect(atHome.judge("tools/call", call("write_file", { path: "\t/../.bashrc" })).verdict).toBe("deny");
  });

  it("D2: a set variable, judged as written too", () => {
    for (const path of ["$HOME/../.ssh/authorized_keys", "${HOME}/../.ssh/authorized_keys"]) {
      const d = fromHome.judge("tools/call", call("write_file", { path, content: "x" }));
      expect(d, path).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
      expect(d.reason).toBe(
        "write_file would write /home/user/.ssh/authorized_keys (if the server does not expand variables), which matches paths.deny ~/.ssh/**",
      );
    }
    // A variable in the middle changes how many names `..` climbs.
    expect(fromHome.judge("tools/call", call("write_file", { path: "x$HOME/../.bashrc" })).rule).toBe(
      "paths.deny ~/.bashrc",
    );
    expect(
      fromHome.judge("tools/call", call("read_text_file", { path: "$HOME/../.ssh/id_rsa" })).verdict,
    ).toBe("deny");
  });

  it("D3: a file: URI, judged undecoded too", () => {
    const d = fromHome.judge(
      "tools/call",
      call("write_file", { path: "file:/../.ssh/config", content: "x" }),
    );
    expect(d.reason).toBe(
      "write_file would write /home/user/.ssh/config (if the server does not decode file: URIs), which matches paths.deny ~/.ssh/**",
    );
    expect(fromHome.judge("tools/call", call("write_file", { path: "file:/x?/../../.bashrc" })).rule).toBe(
      "paths.deny ~/.bashrc",
    );
    expect(
      fromHome.judge("tools/call", call("read_text_file", { path: "file:/../.ssh/id_rsa" })).verdict,
    ).toBe("deny");
  });

  it("a folder move is judged below each reading", () => {
    const d = judgeOf({ bases: ["/home"] }).judge(
      "tools/call",
      call("move_file", { source: "staged", destination: " /../user" }),
    );
    expect(d.verdict).toBe("deny");
    expect(d.reason).toContain("onto /home/user as a whole");
    expect(canonicals(d)).toContain("/home/user");
  });

  it("keeps harmless spellings allowed", () => {
    for (const path of [" notes.md", "$HOME/project/a.txt", "~/project/b.txt", "file:///home/user/project/c"])
      expect(fromHome.judge("tools/call", call("write_file", { path })).verdict, path).toBe("allow");
  });
});

describe("D4: names a server matches by their NFC form", () => {
  it("a KELVIN SIGN meets a pattern with K", () => {
    const j = judgeOf({ text: 'version: 1\npaths:\n  deny_read: ["~/Keys/**"]\n' });
    const d = j.judge("tools/call", call("read_text_file", { path: "/home/user/\u212Aeys/k.txt" }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny_read ~/Keys/**" });
    expect(d.reason).toBe(
      "read_text_file would read /home/user/Keys/k.txt (if the server matches names by their NFC form), which matches paths.deny_read ~/Keys/**",
    );
  });

  it("an NFD spelling of an NFC home is the home", () => {
    const home = "/home/jos\u00e9";
    const profile = { ...PROFILE, home, env: { HOME: home }, cwd: `${home}/project` };
    const j = judgeOf({ profile });
    const d = j.judge("tools/call", call("write_file", { path: "/home/jose\u0301/.bashrc" }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.bashrc" });
    // The NFD spelling relative to a base: read from there, then as its NFC form.
    const fromHomes = judgeOf({ profile, bases: ["/home"] });
    expect(fromHomes.judge("tools/call", call("write_file", { path: "jose\u0301/.ssh/x" })).verdict).toBe(
      "deny",
    );
  });
});

describe("cost", () => {
  it("a path no step changes is canonicalised once (once per base)", () => {
    const seen: string[] = [];
    const counting: Canonicalise = (input, profile, resolver, leaveOut) => {
      seen.push(`${profile.cwd}:${input}:${leaveOut ?? 0}`);
      return canonicalise(input, profile, resolver, leaveOut);
    };
    const j = createSessionJudge(
      policyOf(),
      { profile: PROFILE, resolver: LEXICAL_ONLY },
      { canonicalise: counting },
    );
    j.judge("tools/call", call("read_multiple_files", { paths: ["src/a.ts", "/etc/hosts", "../x"] }));
    expect(seen).toEqual([
      "/home/user/project:src/a.ts:0",
      "/home/user/project:/etc/hosts:0",
      "/home/user/project:../x:0",
    ]);
  });
});
