// Retention (issue 24): the relay deletes old session logs once its server runs; only regular
// files named as logs, in a private folder that is not a link, and never through a link.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileStamp } from "../../src/log/naming.js";
import { keepSetting, pruneSessions } from "../../src/log/retention.js";
import { sandbox } from "../helpers/pins.js";
import { echoSession, tool } from "../helpers/relay-sessions.js";

const DAY = 86_400_000;
const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), "eg-keep-"));
  dirs.push(d);
  const s = join(d, "sessions");
  mkdirSync(s, { mode: 0o700 });
  return s;
}

/** A log named as started `startDays` ago and last written `mtimeDays` ago. */
function log(dir: string, startDays: number, mtimeDays = startDays, sid = "0123456789abcdef"): string {
  const file = join(dir, `${fileStamp(new Date(NOW - startDays * DAY))}-${sid}-fs.jsonl`);
  writeFileSync(file, "{}\n", { mode: 0o600 });
  const m = new Date(NOW - mtimeDays * DAY);
  utimesSync(file, m, m);
  return file;
}

describe("pruneSessions", () => {
  it("deletes logs older than the limit, and nothing else", async () => {
    const dir = folder();
    const old = log(dir, 40, 40, "0000000000000001");
    const oldPart = old.replace(/\.jsonl$/, ".part000002.jsonl");
    writeFileSync(oldPart, "{}\n");
    utimesSync(oldPart, new Date(NOW - 39 * DAY), new Date(NOW - 39 * DAY));
    const fresh = log(dir, 2, 2, "0000000000000002");
    // Started long ago but written to lately: a session still going on.
    const longRunning = log(dir, 40, 1, "0000000000000003");
    const foreign = join(dir, "notes.jsonl");
    writeFileSync(foreign, "mine\n");
    utimesSync(foreign, new Date(NOW - 90 * DAY), new Date(NOW - 90 * DAY));
    const r = await pruneSessions(dir, 30, NOW);
    expect(r).toEqual({ removed: 2, bytes: 6 });
    expect(existsSync(old)).toBe(false);
    expect(existsSync(oldPart)).toBe(false);
    for (const kept of [fresh, longRunning, foreign]) expect(existsSync(kept)).toBe(true);
  });

  it("never follows a link: a link named as an old log, and a folder named so, stay; so does their target", async () => {
    const dir = folder();
    const outside = join(dir, "..", "precious.txt");
    writeFileSync(outside, "keep me");
    utimesSync(outside, new Date(NOW - 90 * DAY), new Date(NOW - 90 * DAY));
    const link = join(dir, `${fileStamp(new Date(NOW - 90 * DAY))}-00000000000000aa-x.jsonl`);
    symlinkSync(outside, link);
    const sub = join(dir, `${fileStamp(new Date(NOW - 90 * DAY))}-00000000000000bb-y.jsonl`);
    mkdirSync(sub);
    expect(await pruneSessions(dir, 30, NOW)).toEqual({ removed: 0, bytes: 0 });
    expect(readFileSync(outside, "utf8")).toBe("keep me");
    expect(readdirSync(dir).sort()).toEqual([link, sub].map((p) => p.slice(dir.length + 1)).sort());
  });

  it("leaves a folder alone that is a link, or that others can open", async () => {
    const dir = folder();
    const old = log(dir, 40);
    const alias = join(dir, "..", "alias");
    symlinkSync(dir, alias);
    expect(await pruneSessions(alias, 30, NOW)).toMatchObject({
      removed: 0,
      skipped: "the folder is a link",
    });
    chmodSync(dir, 0o755);
    expect(await pruneSessions(dir, 30, NOW)).toMatchObject({
      removed: 0,
      skipped: "the folder is open to other users",
    });
    expect(existsSync(old)).toBe(true);
  });

  it("reads EFFECTGATE_KEEP_DAYS: default 30, 0 keeps all, anything else deletes nothing and says so", () => {
    expect(keepSetting({})).toMatchObject({ ok: true, days: 30 });
    expect(keepSetting({ EFFECTGATE_KEEP_DAYS: "7" })).toMatchObject({ ok: true, days: 7 });
    expect(keepSetting({ EFFECTGATE_KEEP_DAYS: "0" })).toMatchObject({ ok: true, days: null });
    expect(keepSetting({ EFFECTGATE_KEEP_DAYS: "7d" })).toEqual({
      ok: false,
      problem:
        'EFFECTGATE_KEEP_DAYS: expected a whole number of days (0 keeps every log), got "7d"; no log is deleted',
    });
  });
});

describe("the relay prunes at start-up", () => {
  const oldLog = (sessions: string): string => {
    mkdirSync(sessions, { recursive: true, mode: 0o700 });
    const file = join(sessions, `${fileStamp(new Date(Date.now() - 60 * DAY))}-00000000000000cc-old.jsonl`);
    writeFileSync(file, "{}\n", { mode: 0o600 });
    utimesSync(file, new Date(Date.now() - 60 * DAY), new Date(Date.now() - 60 * DAY));
    return file;
  };

  it.each(["observe", "enforce"])(
    "at %s: deletes a 60-day-old log and records it in the new session's log",
    async (level) => {
      const box = sandbox();
      dirs.push(box.dir);
      const sessions = join(box.home, ".effectgate", "sessions");
      const old = oldLog(sessions);
      const r = await echoSession(box, { level, name: "fs" }, [tool(3, "read_file", { path: "a.md" })]);
      expect(r.code).toBe(0);
      expect(existsSync(old)).toBe(false);
      const [mine] = readdirSync(sessions);
      const text = readFileSync(join(sessions, mine as string), "utf8");
      expect(text).toContain('"ev":"logs-pruned"');
      expect(text).toContain('"removed":1');
    },
    30_000,
  );

  it("keeps everything with EFFECTGATE_KEEP_DAYS=0, and says why with a value it cannot read", async () => {
    for (const [value, said] of [
      ["0", false],
      ["soon", true],
    ] as const) {
      const box = sandbox();
      dirs.push(box.dir);
      box.env["EFFECTGATE_KEEP_DAYS"] = value;
      const old = oldLog(join(box.home, ".effectgate", "sessions"));
      const r = await echoSession(box, { level: "enforce" }, [tool(3, "read_file", { path: "a.md" })]);
      expect(existsSync(old)).toBe(true);
      expect(r.stderr.includes("EFFECTGATE_KEEP_DAYS: expected a whole number of days")).toBe(said);
    }
  }, 30_000);
});
