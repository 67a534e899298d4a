import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realFileIo, type FileIo } from "../../src/platform/secure-file.js";
import { openSessionLog } from "../../src/log/writer.js";
import type { LogRecord } from "../../src/log/records.js";
import { logFiles, readRecords, sampleHeader, useTempHome } from "../helpers/log.js";

const root = useTempHome();

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** The real file system, with writes that fail, or write short, while a test says so. */
function faultyIo() {
  const ctl = {
    fail: null as string | null,
    /** Bytes a failing write still puts on disk before throwing (a torn write). */
    partial: 0,
    /** When > 0, every successful write writes at most this many bytes. */
    shortWrites: 0,
    writes: 0,
    owesThrow: false,
  };
  const io: FileIo = {
    ...realFileIo,
    writeSync(fd, buf, offset, length) {
      ctl.writes++;
      if (ctl.fail) {
        // Like write(2) on a filling disk: a short write first, then the error on the next call.
        if (ctl.partial > 0 && !ctl.owesThrow && length > ctl.partial) {
          ctl.owesThrow = true;
          return realFileIo.writeSync(fd, buf, offset, ctl.partial);
        }
        ctl.owesThrow = false;
        throw errno(ctl.fail);
      }
      return realFileIo.writeSync(
        fd,
        buf,
        offset,
        ctl.shortWrites > 0 ? Math.min(ctl.shortWrites, length) : length,
      );
    },
  };
  return { io, ctl };
}

const evs = (recs: LogRecord[]) => recs.map((r) => (r.type === "event" ? `${r.ev}` : r.type));

describe("log write failures", () => {
  it("a folder that cannot be created: warns once, never throws, and the first record after recovery is log-gap", () => {
    const blocker = join(root(), "blocker");
    writeFileSync(blocker, "a file where a folder should be");
    const dir = join(blocker, "sessions");
    const warnings: string[] = [];
    const log = openSessionLog({ dir, warn: (l) => warnings.push(l) });
    expect(log.path).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dir);
    expect(warnings[0]).toMatch(/ENOTDIR|EEXIST/);

    expect(() => {
      log.header(sampleHeader);
      for (let i = 0; i < 5; i++) log.frame("c2s", Buffer.from(`{"id":${i}}`), "\n", false);
    }).not.toThrow();
    expect(warnings).toHaveLength(1);

    rmSync(blocker); // the folder can now be created
    log.frame("s2c", Buffer.from('{"id":0,"result":{}}'), "\n", false);
    log.close();

    const files = logFiles(dir);
    expect(files).toHaveLength(1);
    const recs = readRecords(join(dir, files[0] as string));
    // The header survives (parts always begin with it), then the gap, then the record.
    expect(evs(recs)).toEqual(["header", "log-gap", "frame"]);
    expect(recs[1]).toMatchObject({ seq: 7, data: { lost: 6 } });
    expect((recs[1] as unknown as { data: { error: string } }).data.error).toMatch(/ENOTDIR|EEXIST/);
    expect(recs[2]).toMatchObject({ seq: 8, text: '{"id":0,"result":{}}' });
    expect(warnings[1]).toMatch(/writable again; 6 record\(s\) were lost/);
  });

  it("disk full on an open file: warns once, keeps the descriptor, leaves no torn line, then logs the gap", () => {
    const { io, ctl } = faultyIo();
    const warnings: string[] = [];
    const dir = join(root(), "s");
    const log = openSessionLog({ dir, io, platform: "linux", warn: (l) => warnings.push(l) });
    log.header(sampleHeader);
    log.event("ok", {});
    ctl.fail = "ENOSPC";
    ctl.partial = 10; // each failing write leaves 10 bytes behind unless the writer cleans up
    for (let i = 0; i < 4; i++) log.frame("c2s", Buffer.from(`{"id":${i}}`), "\n", false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("ENOSPC");
    expect(warnings[0]).toContain(log.path as string);
    ctl.fail = null;
    log.event("back", {});
    log.close();

    expect(logFiles(dir)).toHaveLength(1); // same file, no new part
    const recs = readRecords(log.path as string);
    expect(evs(recs)).toEqual(["header", "ok", "log-gap", "back"]);
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 7, 8]);
    expect(recs[2]).toMatchObject({ data: { lost: 4, error: "ENOSPC: simulated" } });
  });

  it("a big frame written in parts: a failure after its head leaves no torn line", () => {
    const { io, ctl } = faultyIo();
    const dir = join(root(), "parts");
    const log = openSessionLog({ dir, io, platform: "linux", warn: () => undefined });
    log.header(sampleHeader);
    const big = Buffer.from(JSON.stringify({ id: 1, result: { text: "z".repeat(200_000) } }));
    ctl.writes = 0;
    log.frame("s2c", big, "\n", false, true);
    expect(ctl.writes).toBeGreaterThan(1); // the record went out in more than one write
    // Now the frame's bytes fail after the record's head went out (a filling disk).
    let calls = 0;
    const real = io.writeSync.bind(io);
    io.writeSync = (fd, buf, offset, length) => {
      if (++calls === 2) throw errno("ENOSPC");
      return real(fd, buf, offset, length);
    };
    log.frame("s2c", big, "\n", false, true);
    io.writeSync = real;
    log.event("after", {});
    log.close();
    const recs = readRecords(log.path as string);
    expect(evs(recs)).toEqual(["header", "frame", "log-gap", "after"]);
    expect((recs[1] as unknown as { text: string }).text).toBe(big.toString("utf8"));
  });

  it("a descriptor that goes bad (EBADF): the next record starts a new part that says why", () => {
    const { io, ctl } = faultyIo();
    const warnings: string[] = [];
    const dir = join(root(), "s");
    const log = openSessionLog({ dir, io, platform: "linux", warn: (l) => warnings.push(l) });
    log.header(sampleHeader);
    const first = log.path as string;
    ctl.fail = "EBADF";
    log.event("lost", {});
    ctl.fail = null;
    log.event("found", {});
    log.close();

    const files = logFiles(dir);
    expect(files).toHaveLength(2);
    expect(log.path).not.toBe(first);
    expect(warnings).toHaveLength(2); // the failure, then the recovery
    const recs = readRecords(log.path as string);
    expect(evs(recs)).toEqual(["header", "log-gap", "rotated", "found"]);
    expect(recs[1]).toMatchObject({ seq: 3, data: { lost: 1, error: "EBADF: simulated" } });
    expect(recs[2]).toMatchObject({ seq: 4, data: { from: files[0], part: 2, reason: "write-error" } });
  });

  it("short writes are completed, not torn", () => {
    const { io, ctl } = faultyIo();
    ctl.shortWrites = 7;
    const log = openSessionLog({ dir: join(root(), "s"), io, platform: "linux", warn: () => {} });
    log.header(sampleHeader);
    log.frame("s2c", Buffer.from(JSON.stringify({ big: "é".repeat(500) })), "\n", false);
    log.close();
    expect(evs(readRecords(log.path as string))).toEqual(["header", "frame"]);
    expect(ctl.writes).toBeGreaterThan(100);
  });

  it("a failure during rotation is counted and reported, never silently dropped", () => {
    const { io, ctl } = faultyIo();
    const warnings: string[] = [];
    const dir = join(root(), "s");
    let failOpens = false;
    const io2: FileIo = {
      ...io,
      openSync: (p, f, m) => {
        if (failOpens) throw errno("EMFILE");
        return io.openSync(p, f, m);
      },
    };
    const log = openSessionLog({
      dir,
      io: io2,
      platform: "linux",
      maxBytes: 600,
      warn: (l) => warnings.push(l),
    });
    log.header(sampleHeader);
    failOpens = true;
    for (let i = 0; i < 10; i++) log.event("fill", { pad: "p".repeat(100), i });
    failOpens = false;
    log.event("after", {});
    log.close();
    expect(ctl.fail).toBeNull();
    expect(warnings.filter((w) => w.includes("EMFILE"))).toHaveLength(1);
    const files = logFiles(dir);
    expect(files).toHaveLength(2);
    const second = readRecords(join(dir, files[1] as string));
    expect(evs(second)).toEqual(["header", "log-gap", "rotated", "after"]);
    const gap = second[1] as unknown as { seq: number; data: { lost: number } };
    const firstRecs = readRecords(join(dir, files[0] as string));
    // Every seq before the gap is accounted for: written in part 1 or counted as lost.
    expect(firstRecs.length + gap.data.lost).toBe(gap.seq - 1);
    expect(gap.data.lost).toBeGreaterThan(0);
  });

  it("says at close how many records were never written", () => {
    const { io, ctl } = faultyIo();
    const warnings: string[] = [];
    const log = openSessionLog({
      dir: join(root(), "s"),
      io,
      platform: "linux",
      warn: (l) => warnings.push(l),
    });
    ctl.fail = "EIO";
    log.event("a", {});
    log.event("b", {});
    log.close();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/2 record\(s\) were never written \(EIO: simulated\)/);
  });

  it("a warn function that throws does not break the writer", () => {
    const blocker = join(root(), "blocker");
    writeFileSync(blocker, "");
    const log = openSessionLog({
      dir: join(blocker, "x"),
      warn: () => {
        throw new Error("stderr is gone");
      },
    });
    expect(() => log.event("a", {})).not.toThrow();
    expect(() => log.close()).not.toThrow();
  });
});
