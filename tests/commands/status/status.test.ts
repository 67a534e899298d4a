// effectgate status over a real client config and real relay sessions (issue 24): what is
// wrapped, what enforce and strict would have refused, by rule, with advice that works.
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, MAIN, sandbox } from "../../helpers/pins.js";
import { ECHO, echoSession, tool } from "../../helpers/relay-sessions.js";

let box: ReturnType<typeof sandbox>;
let sessions: string;
let ssh: string;
let firstStderr: string;

beforeAll(async () => {
  box = sandbox();
  sessions = join(box.home, ".effectgate", "sessions");
  ssh = join(box.home, ".ssh", "authorized_keys");
  writeFileSync(
    join(box.home, ".claude.json"),
    JSON.stringify({
      mcpServers: {
        fs: {
          command: process.execPath,
          args: [MAIN, "--level", "observe", "--name", "fs", "--", process.execPath, ECHO],
        },
        plain: { command: "npx", args: ["-y", "some-server"] },
      },
    }),
  );
  // At observe everything reaches the server; enforce would refuse the key, strict the task file too.
  ({ stderr: firstStderr } = await echoSession(box, { level: "observe", name: "fs" }, [
    tool(3, "write_file", { path: ssh, content: "ssh-ed25519 AAAA attacker" }),
    tool(4, "write_file", { path: join(box.dir, ".vscode", "tasks.json"), content: "{}" }),
    tool(5, "read_file", { path: join(box.dir, "notes.md") }),
  ]));
}, 60_000);

afterAll(() => rmSync(box.dir, { recursive: true, force: true }));

describe("effectgate status", () => {
  it("lists each client's servers, wrapped or not, with level, policy and lock", () => {
    const r = cli(box, ["status"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`claude-code  ${join(box.home, ".claude.json")}`);
    expect(r.stdout).toContain("    fs  level observe  policy default  lock none");
    expect(r.stdout).toContain("    plain  NOT WRAPPED: its calls are not judged (effectgate install)");
  });

  it("says which client each last session had, and how strict would ask it", () => {
    const r = cli(box, ["status"]);
    // The session's client declared no elicitation in its 2025 handshake.
    expect(r.stdout).toContain("    client test 1: strict asks out of band (effectgate pending / allow)");
    const json = JSON.parse(cli(box, ["status", "--json"]).stdout) as {
      recent: Array<{ client: string | null; asks: string | null }>;
    };
    expect(json.recent[0]).toMatchObject({ client: "test 1", asks: "out of band" });
  });

  it("is what the first session at observe points to, and names the same switch", () => {
    // The relay's notice (src/core/gate/observe-notice.ts): "see what it would have refused
    // with effectgate status, then run effectgate install --level enforce ...".
    const notice =
      /see what it would have refused with effectgate (\S+), then run (effectgate install --level enforce)/.exec(
        firstStderr,
      );
    expect(notice, firstStderr).not.toBeNull();
    const [, command, how] = notice as unknown as [string, string, string];
    const r = cli(box, [command]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("At enforce, 1 call would have been refused");
    expect(r.stdout).toContain(`To switch: ${how}`);
  });

  it("says the logs' size and retention, and that they hold secrets", () => {
    const out = cli(box, ["status"]).stdout;
    expect(out).toMatch(
      /1 session, [\d.]+ KiB, the oldest from \d{4}-\d\d-\d\d \d\d:\d\d\. They hold everything/,
    );
    expect(out).toContain("secrets included");
    expect(out).toContain("Sessions older than 30 days are deleted when a relay starts (the default");
    const kept = cli({ ...box, env: { ...box.env, EFFECTGATE_KEEP_DAYS: "0" } }, ["status"]).stdout;
    expect(kept).toContain("Kept for ever (EFFECTGATE_KEEP_DAYS=0)");
  });

  it("groups what enforce and strict would have refused by rule, with the way out", () => {
    const out = cli(box, ["status"]).stdout;
    expect(out).toContain("At enforce, 1 call would have been refused");
    expect(out).toContain("    paths.deny ~/.ssh/**  1 call  (policy default)");
    expect(out).toMatch(new RegExp(`fs {2}write_file {2}write ${ssh.replace(/[.]/g, "\\.")}`));
    expect(out).toContain('To allow it: remove "~/.ssh/**" from paths.deny in your copy');
    expect(out).toContain(`effectgate install --policy ${join(box.home, "effectgate-policy.yaml")}`);
    expect(out).toContain("To switch: effectgate install --level enforce");
    // This client declared no elicitation: strict refuses the task file write too.
    expect(out).toContain("At strict, 2 calls would have been refused or asked about");
    expect(out).toContain("paths.confirm **/.vscode/tasks.json  1 call");
    expect(out).toContain("To switch: effectgate install --level strict");
  });

  it("counts what eval counts over the same logs: the relay's own judgement", () => {
    const s = JSON.parse(cli(box, ["status", "--json"]).stdout) as {
      window: { calls: number; enforce: { blocks: number }; strict: { blocks: number } };
    };
    const e = JSON.parse(cli(box, ["eval", "--benign", sessions, "--home", box.home, "--json"]).stdout) as {
      benign: { calls: number; enforce: { blocks: number }; strict: { blocks: number } };
    };
    expect(s.window.calls).toBe(3);
    expect(s.window.calls).toBe(e.benign.calls);
    expect(s.window.enforce.blocks).toBe(e.benign.enforce.blocks);
    expect(s.window.strict.blocks).toBe(e.benign.strict.blocks);
  });

  it("gives advice that works: the copy without the pattern allows the call", () => {
    const out = cli(box, ["status"]).stdout;
    const cp = /^\s+cp (\S+) (\S+)$/m.exec(out);
    expect(cp).not.toBeNull();
    const [, from, to] = cp as unknown as [string, string, string];
    writeFileSync(to, readFileSync(from, "utf8").replace(/^\s+- "~\/\.ssh\/\*\*".*$/m, ""));
    const args = JSON.stringify({ path: ssh, content: "x" });
    expect(cli(box, ["check", "--tool", "write_file", "--args", args, "--home", box.home]).code).toBe(3);
    const after = cli(box, [
      "check",
      "--policy",
      to,
      "--tool",
      "write_file",
      "--args",
      args,
      "--home",
      box.home,
    ]);
    expect(after.code).toBe(0);
    unlinkSync(to);
  });

  it("says which sessions it could not judge again, and exits 1", async () => {
    const policy = join(box.dir, "gone.yaml");
    writeFileSync(policy, "version: 1\n");
    const other = sandbox();
    try {
      await echoSession(other, { level: "observe", name: "x", extra: ["--policy", policy] }, [
        tool(3, "read_file", { path: "a" }),
      ]);
      unlinkSync(policy);
      const r = cli(other, ["status"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/NOT JUDGED: 1 session under policy .*gone\.yaml: /);
    } finally {
      rmSync(other.dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("works on a machine with no client config and no logs", () => {
    const empty = sandbox();
    try {
      const r = cli(empty, ["status"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("no client config found");
      expect(r.stdout).toContain("none yet: a wrapped server's first session creates the folder");
      expect(existsSync(join(empty.home, ".effectgate"))).toBe(false);
    } finally {
      rmSync(empty.dir, { recursive: true, force: true });
    }
  });

  it("escapes a hostile server name", async () => {
    const other = sandbox();
    mkdirSync(join(other.home, ".effectgate"), { recursive: true });
    try {
      await echoSession(other, { level: "observe", name: "evil\u001b[2J\u202ename" }, [
        tool(3, "write_file", { path: join(other.home, ".bashrc"), content: "x" }),
      ]);
      const out = cli(other, ["status"]).stdout;
      expect(out).toContain("evil\\x1b[2J\\u202ename");
      // eslint-disable-next-line no-control-regex -- no raw control or bidi character may pass
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e]/);
    } finally {
      rmSync(other.dir, { recursive: true, force: true });
    }
  }, 60_000);
});
