// `replay` and `eval --benign` on logs they cannot read (hunt report tools.md D2), and
// `replay --json` with nothing to replay (D5): never a stack trace or exit 70. A named file
// that cannot be read is a usage error (exit 2, one line naming it); in a folder, the file is
// reported on stderr and in the transcript, the rest is read, and the exit is 1.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const ROOT_USER = process.getuid?.() === 0;

const GOOD = "20261102T090000.000Z-a1b2c3d4a1b2c3d4.jsonl";
const HEADER = {
  type: "header",
  seq: 1,
  t: "2026-11-02T09:00:00.000Z",
  sid: "a1b2c3d4a1b2c3d4",
  effectgate: "0.1.0",
  argv: [],
  server: ["node", "srv.js"],
  name: null,
  cwd: "/home/user/project",
  pid: 1,
  platform: "linux",
  level: "enforce",
  from: "flag",
  policy: null,
  lock: null,
};

/** A folder of logs any user can enter: one good log, and what the test adds. */
function logFolder(): { root: string; logs: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), "eg-unreadable-"));
  chmodSync(root, 0o755);
  const logs = join(root, "logs");
  mkdirSync(logs, { mode: 0o755 });
  chmodSync(logs, 0o755);
  writeFileSync(join(logs, GOOD), `${JSON.stringify(HEADER)}\n`, { mode: 0o644 });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: root, EFFECTGATE_HOME: join(root, "eg") };
  delete env.EFFECTGATE_OFF;
  return { root, logs, env };
}

/**
 * A file its reader may not read. Root reads anything, so as root the CLI runs as nobody
 * (65534) and the file is root's 0600; otherwise the file is made 0000.
 */
function unreadable(path: string): void {
  writeFileSync(path, `${JSON.stringify(HEADER)}\n`);
  chmodSync(path, ROOT_USER ? 0o600 : 0o000);
}

function cli(args: string[], env: NodeJS.ProcessEnv, asOther = false) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env,
    encoding: "utf8",
    ...(asOther && ROOT_USER ? { uid: 65534, gid: 65534 } : {}),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function noCrash(err: string): void {
  expect(err).not.toContain("internal error");
  expect(err).not.toMatch(/^\s+at /m);
}

beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});

describe("replay: logs that cannot be read", () => {
  it("a dangling *.jsonl link in the folder is reported and skipped; the rest is replayed; exit 1", () => {
    const { logs, env } = logFolder();
    symlinkSync("/nonexistent/zz.jsonl", join(logs, "zz.jsonl"));
    const r = cli(["replay", logs], env);
    noCrash(r.err);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `effectgate: replay: skipped ${JSON.stringify(join(logs, "zz.jsonl"))}: expected a readable session log, got a link to nothing (ENOENT)\n`,
    );
    expect(r.out).toContain(`== ${GOOD}\nsession a1b2c3d4a1b2c3d4`);
    expect(r.out).toContain(
      "== zz.jsonl\n  ** UNREADABLE  zz.jsonl: expected a readable session log, got a link to nothing (ENOENT); skipped\n",
    );
    const json = cli(["replay", "--json", logs], env);
    expect(json.code).toBe(1);
    const records = json.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.at(-1)).toMatchObject({ type: "totals", sessions: 1 });
    expect(records.at(-2)).toEqual({
      type: "file",
      file: "zz.jsonl",
      sessions: 0,
      unreadable: [{ file: "zz.jsonl", why: "a link to nothing (ENOENT)" }],
    });
    expect(records.some((r) => r["type"] === "session" && r["sid"] === "a1b2c3d4a1b2c3d4")).toBe(true);
  });

  it("a file it may not read, named or in a folder", () => {
    const { logs, env } = logFolder();
    const secret = join(logs, "20261102T100000.000Z-ffffffffffffffff.jsonl");
    unreadable(secret);
    const named = cli(["replay", secret], env, true);
    noCrash(named.err);
    expect(named.code).toBe(2);
    expect(named.err).toBe(
      `effectgate replay: expected a readable log file, got "${secret}": no permission to read it (EACCES)\n`,
    );
    expect(named.out).toBe("");
    const folder = cli(["replay", logs], env, true);
    noCrash(folder.err);
    expect(folder.code).toBe(1);
    expect(folder.err).toContain(
      `skipped ${JSON.stringify(secret)}: expected a readable session log, got no permission to read it (EACCES)`,
    );
    expect(folder.out).toContain(`session a1b2c3d4a1b2c3d4`);
  });

  it("a folder it may not list is a usage error naming it", () => {
    const { logs, env } = logFolder();
    chmodSync(logs, ROOT_USER ? 0o700 : 0o000);
    const r = cli(["replay", logs], env, true);
    chmodSync(logs, 0o755);
    noCrash(r.err);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `effectgate replay: expected a readable log file or folder, got "${logs}": no permission to read it (EACCES)\n`,
    );
  });
});

describe("eval --benign: logs that cannot be read", () => {
  it("a dangling link in the folder: reported, the rest measured, exit 1, listed in --json", () => {
    const { logs, env } = logFolder();
    symlinkSync("/nonexistent/zz.jsonl", join(logs, "zz.jsonl"));
    const r = cli(["eval", "--benign", logs, "--json"], env);
    noCrash(r.err);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `effectgate: eval: skipped ${JSON.stringify(join(logs, "zz.jsonl"))}: expected a readable session log, got a link to nothing (ENOENT)\n`,
    );
    const report = JSON.parse(r.out) as { benign: { sessions: number }; unreadableLogs: unknown[] };
    expect(report.benign.sessions).toBe(1);
    expect(report.unreadableLogs).toEqual([{ file: "zz.jsonl", why: "a link to nothing (ENOENT)" }]);
    const text = cli(["eval", "--benign", logs], env);
    expect(text.code).toBe(1);
    expect(text.out).toContain(
      "unreadable benign log skipped: zz.jsonl: expected a readable session log, got a link to nothing (ENOENT)",
    );
  });

  it("a named file it may not read is a usage error", () => {
    const { logs, env } = logFolder();
    const secret = join(logs, "secret.jsonl");
    unreadable(secret);
    const r = cli(["eval", "--benign", secret], env, true);
    noCrash(r.err);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `effectgate eval: --benign: expected a readable log file, got "${secret}": no permission to read it (EACCES)\n`,
    );
  });
});

describe("replay --json with nothing to replay still prints JSON", () => {
  it("an empty folder, and a sessions folder not made yet", () => {
    const { root, env } = logFolder();
    const empty = join(root, "empty");
    mkdirSync(empty);
    const a = cli(["replay", "--json", empty], env);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.out)).toEqual({ type: "folder", folder: empty, exists: true, logs: 0 });
    const b = cli(["replay", "--json"], env);
    expect(b.code).toBe(0);
    expect(JSON.parse(b.out)).toEqual({
      type: "folder",
      folder: join(root, "eg", "sessions"),
      exists: false,
      logs: 0,
    });
    // Without --json the words are unchanged.
    expect(cli(["replay", empty], env).out).toBe(`no session logs (*.jsonl) in ${empty}\n`);
  });
});
