import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  fileStamp,
  parseLogFileName,
  partFileName,
  sanitizeName,
  sessionBase,
} from "../../src/log/naming.js";
import { openSessionLog } from "../../src/log/writer.js";
import type { LogRecord } from "../../src/log/records.js";
import { logFiles, readRecords, sampleHeader, steppingClock, useTempHome } from "../helpers/log.js";

useTempHome();
const sessions = () => join(process.env["EFFECTGATE_HOME"] as string, "sessions");

describe("log file names", () => {
  it("sanitises the name to [A-Za-z0-9_-] and drops names with nothing left", () => {
    expect(sanitizeName("../../etc/passwd")).toBe("etc_passwd");
    expect(sanitizeName("my server.v2")).toBe("my_server_v2");
    expect(sanitizeName("C:\\x\u0000y")).toBe("C_x_y");
    expect(sanitizeName("...")).toBeNull();
    expect(sanitizeName("")).toBeNull();
    expect(sanitizeName(null)).toBeNull();
    expect(sanitizeName("a".repeat(100))).toHaveLength(48);
  });

  it("uses a fixed-width UTC stamp without colons", () => {
    expect(fileStamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe("20260102T030405.006Z");
  });

  it("parses back what it writes, for first and later parts", () => {
    const base = sessionBase(new Date(0), "0123456789abcdef", "srv");
    expect(parseLogFileName(partFileName(base, 1))).toEqual({
      stamp: "19700101T000000.000Z",
      sid: "0123456789abcdef",
      name: "srv",
      part: 1,
    });
    expect(parseLogFileName(partFileName(base, 12))).toMatchObject({ part: 12 });
    expect(parseLogFileName("notes.jsonl")).toBeNull();
  });

  it("lists parts after their first part and in numeric order", () => {
    const base = sessionBase(new Date(0), "0123456789abcdef", null);
    const names = [1, 2, 9, 10, 11, 100, 1000].map((p) => partFileName(base, p));
    expect([...names].sort()).toEqual(names);
  });

  it("never collides across many opens in one millisecond", () => {
    const frozen = new Date(Date.UTC(2026, 10, 30, 12, 0, 0, 0));
    const paths = new Set<string>();
    const sids = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const log = openSessionLog({ dir: sessions(), name: "same", now: () => frozen, warn: () => {} });
      log.event("hello", { i });
      log.close();
      paths.add(log.path as string);
      sids.add(log.sid);
    }
    expect(paths.size).toBe(300);
    expect(sids.size).toBe(300);
    expect(logFiles(sessions())).toHaveLength(300);
  });

  it("sorts by time: a listing gives sessions in the order they started", () => {
    const clock = steppingClock(Date.UTC(2026, 10, 30, 23, 59, 59, 990), 7); // crosses midnight
    const order: string[] = [];
    for (let i = 0; i < 20; i++) {
      const log = openSessionLog({ dir: sessions(), now: clock, warn: () => {} });
      log.event("n", { i });
      log.close();
      order.push(log.sid);
    }
    expect(logFiles(sessions()).map((f) => parseLogFileName(f)?.sid)).toEqual(order);
  });
});

describe("rotation", () => {
  it("never splits a record, keeps parts under maxBytes, repeats the header and sorts parts in order", () => {
    const maxBytes = 2000;
    const log = openSessionLog({
      dir: sessions(),
      name: "rot",
      maxBytes,
      now: steppingClock(),
      warn: () => {},
    });
    log.header(sampleHeader);
    let n = 1;
    for (let i = 0; i < 200; i++) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: i, result: { pad: "z".repeat((i * 37) % 300) } });
      log.frame(i % 2 ? "s2c" : "c2s", Buffer.from(body), "\n", false);
      n++;
    }
    log.exit({ code: 0, signal: null, exitCode: 0, counts: {} });
    n++;
    log.close();

    const files = logFiles(sessions());
    expect(files.length).toBeGreaterThan(5);
    expect(files.map((f) => parseLogFileName(f)?.part)).toEqual(files.map((_, i) => i + 1));

    const headerLine = readFileSync(join(sessions(), files[0] as string), "utf8").split("\n")[0];
    const all: LogRecord[] = [];
    files.forEach((f, i) => {
      const path = join(sessions(), f);
      expect(statSync(path).size).toBeLessThanOrEqual(maxBytes);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const recs = readRecords(path); // every line whole and valid
      if (i > 0) {
        expect(readFileSync(path, "utf8").split("\n")[0]).toBe(headerLine);
        expect(recs[1]).toMatchObject({
          type: "event",
          ev: "rotated",
          data: { from: files[i - 1], part: i + 1, reason: "size" },
        });
        all.push(...recs.slice(1)); // drop the repeated header
      } else all.push(...recs);
    });
    // Joined, the parts hold every record exactly once, in seq order, with only the rotated
    // events added.
    const seqs = all.map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(all.filter((r) => !(r.type === "event" && r.ev === "rotated"))).toHaveLength(n);
  });

  it("writes a record bigger than maxBytes whole, into a part of its own", () => {
    const log = openSessionLog({ dir: sessions(), maxBytes: 500, warn: () => {} });
    log.event("small", {});
    log.frame("s2c", Buffer.from("q".repeat(2000)), "\n", true);
    log.event("small again", {});
    log.close();
    const files = logFiles(sessions());
    expect(files).toHaveLength(3);
    const middle = readRecords(join(sessions(), files[1] as string));
    expect(middle.map((r) => r.type)).toEqual(["event", "frame"]);
    expect(middle[1]).toMatchObject({ size: 2000, text: "q".repeat(2000) });
  });

  it("does not rotate when maxBytes is 0", () => {
    const log = openSessionLog({ dir: sessions(), maxBytes: 0, warn: () => {} });
    for (let i = 0; i < 100; i++) log.frame("c2s", Buffer.from("w".repeat(1000)), "\n", true);
    log.close();
    expect(logFiles(sessions())).toHaveLength(1);
  });
});
