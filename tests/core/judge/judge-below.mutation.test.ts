// The judge on folders moved or removed as a whole, on links, hard links and `..` through links,
// and on the exact shape of a decision. Links come from the synthetic resolver eval uses.
import { describe, expect, it } from "vitest";
import { requestEffects } from "../../../src/core/judge/request-effects.js";
import type { Canonicalise } from "../../../src/core/judge/judge-effect.js";
import { createSessionJudge } from "../../../src/core/judge/session.js";
import { mapResolver } from "../../../src/core/evaluation/machine.js";
import { LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";
import { call, judgeOf, PROFILE, policyOf } from "../../helpers/judge.js";

const tc = (name: string, args: Record<string, unknown>) => ["tools/call", call(name, args)] as const;

describe("a folder placed or removed as a whole", () => {
  it("names the link a folder was reached through, and judges where it leads", () => {
    const j = judgeOf({ resolver: mapResolver("linux", { "/home/user/project/ln": "/home/user" }) });
    const d = j.judge(...tc("move_file", { source: "a", destination: "ln" }));
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny ~/.ssh/**");
    expect(d.reason).toBe(
      "move_file would move, copy or unpack onto /home/user (through a link: /home/user/project/ln) as a whole, a folder that holds paths matched by paths.deny ~/.ssh/**",
    );
    expect(d.effects[0]).toEqual({
      operation: "write",
      kind: "path",
      at: "arguments.destination",
      spelled: "ln",
      canonical: "/home/user",
    });
  });

  it("says remove for a removal and names the folder itself when no link is involved", () => {
    const d = judgeOf().judge(...tc("rm", { path: "/home" }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    expect(d.reason).toBe(
      "rm would remove /home as a whole, a folder that holds paths matched by paths.deny ~/.ssh/**",
    );
  });

  it("adds the taint note when a tainted-only list matched below", () => {
    const text = `version: 1\npaths:\n  confirm_if_tainted: ["/opt/x/**"]\n`;
    const args = { source: "a", destination: "/opt" };
    expect(judgeOf({ text }).judge(...tc("move_file", args)).verdict).toBe("allow");
    const d = judgeOf({ text, tainted: true }).judge(...tc("move_file", args));
    expect(d).toMatchObject({ verdict: "confirm", rule: "paths.confirm_if_tainted /opt/x/**" });
    expect(d.reason).toBe(
      "move_file would move, copy or unpack onto /opt as a whole, a folder that holds paths matched by paths.confirm_if_tainted /opt/x/**, and this session has taken in untrusted content",
    );
  });

  it("keeps the folder's own match when nothing stricter lies below it", () => {
    const text = `version: 1\npaths:\n  confirm: ["/data/x", "/data/x/**"]\n  deny: ["/data/y", "/data/y/**"]\n`;
    const j = judgeOf({ text });
    // The confirm below /data/x is no stricter than the confirm on /data/x itself.
    expect(j.judge(...tc("move_file", { source: "a", destination: "/data/x" })).reason).toBe(
      "move_file would write /data/x, which matches paths.confirm /data/x",
    );
    // Nothing is stricter than deny.
    expect(j.judge(...tc("move_file", { source: "a", destination: "/data/y" })).reason).toBe(
      "move_file would write /data/y, which matches paths.deny /data/y",
    );
    // A deny below upgrades the parent.
    expect(j.judge(...tc("move_file", { source: "a", destination: "/data" })).rule).toBe(
      "paths.deny /data/y",
    );
  });

  it("a folder that is only protected below through its link target is caught on the target", () => {
    const text = `version: 1\npaths:\n  deny: ["/srv/keys/**"]\n`;
    const j = judgeOf({ text, resolver: mapResolver("linux", { "/home/user/project/k": "/srv" }) });
    expect(j.judge(...tc("move_file", { source: "k", destination: "/tmp/k" })).rule).toBe(
      "paths.deny /srv/keys/**",
    );
    // Without the link, the same call is fine.
    expect(judgeOf({ text }).judge(...tc("move_file", { source: "k", destination: "/tmp/k" })).verdict).toBe(
      "allow",
    );
  });
});

describe("hard links and `..` through a link (custom canonicaliser)", () => {
  const judgeWith = (canon: Canonicalise, tainted = false) =>
    createSessionJudge(
      policyOf(),
      { profile: PROFILE, resolver: LEXICAL_ONLY },
      { canonicalise: canon, tainted },
    );

  it("refuses a write to a file with other names, but reads it normally", () => {
    const canon: Canonicalise = (input) => ({
      ok: true,
      spelled: input,
      lexical: "/home/user/project/h",
      resolved: "/home/user/project/h",
      otherNames: true,
    });
    const j = judgeWith(canon);
    const why =
      'the path "h" at arguments.path names a file that has other names (hard links); effectgate cannot tell which paths this write changes';
    const e = j.explain(...tc("write_file", { path: "h", content: "" }));
    expect(e.decision).toStrictEqual({
      verdict: "deny",
      rule: "unjudgeable",
      reason: why,
      effects: [
        {
          operation: "write",
          kind: "path",
          at: "arguments.path",
          spelled: "h",
          canonical: "/home/user/project/h",
        },
      ],
      tainted: false,
      unjudgeable: why,
    });
    expect(e.items[0]).toMatchObject({ lexical: "/home/user/project/h", resolved: "/home/user/project/h" });
    expect(j.judge(...tc("read_file", { path: "h" }))).toMatchObject({
      verdict: "allow",
      reason: "no rule matches what read_file would do",
    });
  });

  it("judges where the kernel lands after `..` through a link, and keeps that place in the item", () => {
    const canon: Canonicalise = (input) => ({
      ok: true,
      spelled: input,
      lexical: "/home/user/project/x",
      resolved: "/home/user/project/x",
      physical: "/home/user/.ssh/x",
    });
    const j = judgeWith(canon);
    const e = j.explain(...tc("write_file", { path: "ln/../x", content: "" }));
    expect(e.decision).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    expect(e.decision.reason).toBe(
      'write_file would write /home/user/.ssh/x (where `..` after a link in "ln/../x" leads), which matches paths.deny ~/.ssh/**',
    );
    expect(e.items[0]?.physical).toBe("/home/user/.ssh/x");
    const plain = judgeOf().explain(...tc("write_file", { path: "x", content: "" }));
    expect(plain.items[0]).not.toHaveProperty("physical");
    expect(plain.items[0]).toStrictEqual({
      effect: {
        operation: "write",
        kind: "path",
        at: "arguments.path",
        spelled: "x",
        canonical: "/home/user/project/x",
      },
      verdict: "allow",
      reason: "write_file would write /home/user/project/x, which no rule names",
      lexical: "/home/user/project/x",
      resolved: "/home/user/project/x",
    });
  });
});

describe("call shapes", () => {
  const j = judgeOf();
  it("refuses null params without crashing, under the method's name", () => {
    for (const method of ["tools/call", "prompts/get", "resources/read"]) {
      const e = j.explain(method, null);
      expect(e.subject).toBe(method);
      expect(e.decision).toMatchObject({ verdict: "deny", rule: "unjudgeable" });
      expect(e.decision.unjudgeable).toMatch(new RegExp(`^${method} params must be an object`));
    }
    expect(j.explain("tools/call", undefined, "torn frame").subject).toBe("tools/call");
    expect(j.explain("tools/call", null, "torn frame").subject).toBe("tools/call");
  });

  it("treats missing arguments as none", () => {
    expect(j.judge("tools/call", { name: "get_time" })).toStrictEqual({
      verdict: "allow",
      reason: "get_time names no path, command or URL",
      effects: [],
      tainted: false,
    });
  });

  it("a method that is not judged has no items", () => {
    expect(j.explain("tools/list", {}).items).toEqual([]);
    expect(j.explain("ping", undefined).subject).toBe("ping");
  });

  it("reads resource URIs: a path, a scheme of two or more letters, a path that holds a colon", () => {
    expect(j.judge("resources/read", { uri: "/tmp/r" }).effects).toEqual([
      { operation: "read", kind: "path", at: "uri", spelled: "/tmp/r", canonical: "/tmp/r" },
    ]);
    // A server's own namespace names nothing on this machine, however it ends.
    expect(j.judge("resources/read", { uri: "notes:x/.env" })).toStrictEqual({
      verdict: "allow",
      reason: "notes:x/.env names no path, command or URL",
      effects: [],
      tainted: false,
    });
    expect(j.judge("resources/read", { uri: "ab:x/.env" }).effects).toEqual([]);
    // A colon later in a path does not make it a URI.
    expect(j.judge("resources/read", { uri: "/home/user/ab:c/.env" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny_read **/.env",
    });
  });

  it("reports what a request names, or why it cannot be read, under the best subject", () => {
    const p = policyOf();
    expect(requestEffects(p, "tools/call", { name: "t", arguments: [1] })).toEqual({
      subject: "t",
      error: "tools/call arguments must be an object, got a list",
    });
    expect(requestEffects(p, "tools/call", { name: 3 })).toEqual({
      subject: "tools/call",
      error: "tools/call needs a string name, got number",
    });
    expect(requestEffects(p, "tools/call", null)).toMatchObject({ subject: "tools/call" });
    const ok = requestEffects(p, "tools/call", call("run_shell", { command: "ls" }));
    expect(ok).toMatchObject({ subject: "run_shell", execGlob: "*shell*" });
    const uri = requestEffects(p, "resources/read", { uri: "https://e.com/x" });
    expect(uri).toMatchObject({ subject: "https://e.com/x", execGlob: undefined });
    if ("isContainer" in uri)
      expect(uri.isContainer({ operation: "write", kind: "path", at: "uri", spelled: "x" })).toBeUndefined();
  });

  it("names a table-declared exec tool as built-in when no exec glob covers it", () => {
    expect(j.judge(...tc("start_process", { command: "ls" }))).toMatchObject({
      verdict: "confirm",
      rule: "exec start_process (built-in: runs commands or code)",
      reason: 'start_process runs commands ("ls"); exec.action is confirm',
    });
  });

  it("a real decision carries no unjudgeable field", () => {
    const d = j.judge(...tc("write_file", { path: "~/.ssh/k", content: "" }));
    expect(Object.keys(d).sort()).toEqual(["effects", "reason", "rule", "tainted", "verdict"]);
  });
});

describe("programs a command runs", () => {
  it("says run for the program an exec tool starts", () => {
    const d = judgeOf().judge(...tc("start_process", { command: "echo", shell: "~/.ssh/sh" }));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    expect(d.reason).toBe("start_process would run /home/user/.ssh/sh, which matches paths.deny ~/.ssh/**");
  });
});
