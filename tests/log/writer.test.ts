import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRUNCATED_HEAD_BYTES } from "../../src/log/frame-text.js";
import { parseLogFileName } from "../../src/log/naming.js";
import { openSessionLog } from "../../src/log/writer.js";
import { logFiles, readRecords, sampleHeader, steppingClock, useTempHome } from "../helpers/log.js";

const root = useTempHome();
const sessions = () => join(process.env["EFFECTGATE_HOME"] as string, "sessions");

describe("session log writer", () => {
  it("writes one valid record per line, seq from 1, t from the clock, sid in name and records", () => {
    const warnings: string[] = [];
    const log = openSessionLog({
      dir: sessions(),
      name: "my server/../x",
      now: steppingClock(),
      warn: (l) => warnings.push(l),
    });
    log.header(sampleHeader);
    log.frame("c2s", Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}'), "\n", false);
    log.frame("s2c", Buffer.from("not json at all"), "\r\n", true);
    log.frame("s2c", Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}'), "", false);
    log.stderr("server says hi");
    log.event("decision", { tool: "write_file", action: "deny" });
    log.exit({ code: 0, signal: null, exitCode: 0, counts: { calls: 1 } });
    log.close();

    expect(warnings).toEqual([]);
    const files = logFiles(sessions());
    expect(files).toHaveLength(1);
    const file = files[0] as string;
    expect(join(sessions(), file)).toBe(log.path);
    const parsed = parseLogFileName(file);
    expect(parsed).toMatchObject({ sid: log.sid, name: "my_server_x", part: 1 });

    const recs = readRecords(join(sessions(), file));
    expect(recs.map((r) => r.type)).toEqual(["header", "frame", "frame", "frame", "stderr", "event", "exit"]);
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(recs.map((r) => r.sid))).toEqual(new Set([log.sid]));
    // The clock ticks 1 ms per call; the writer asks it twice while opening, then once a record.
    expect(parsed?.stamp).toBe("20261130T100000.000Z");
    expect(recs[0]?.t).toBe("2026-11-30T10:00:00.002Z");
    expect(recs[6]?.t).toBe("2026-11-30T10:00:00.008Z");
    expect(recs[1]).toMatchObject({
      dir: "c2s",
      size: 40,
      eol: "\n",
      text: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(recs[1]).not.toHaveProperty("nonJson");
    expect(recs[2]).toMatchObject({ dir: "s2c", eol: "\r\n", nonJson: true, text: "not json at all" });
    expect(recs[3]).toMatchObject({ eol: "" });
    expect(recs[5]).toMatchObject({ ev: "decision", data: { tool: "write_file", action: "deny" } });
  });

  it("creates the folder 0700 (parents too) and the file 0600", () => {
    const dir = join(root(), "deep", "er", "sessions");
    const log = openSessionLog({ dir, warn: () => {} });
    log.event("x", {});
    log.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(root(), "deep")).mode & 0o777).toBe(0o700);
    expect(statSync(log.path as string).mode & 0o777).toBe(0o600);
  });

  it("warns once about an existing group/world-readable folder and leaves its mode alone", () => {
    const dir = join(root(), "open");
    mkdirSync(dir, { mode: 0o755 });
    const warnings: string[] = [];
    const log = openSessionLog({ dir, maxBytes: 300, warn: (l) => warnings.push(l) });
    for (let i = 0; i < 20; i++) log.event("tick", { i }); // forces several parts, several dir checks
    log.close();
    expect(logFiles(dir).length).toBeGreaterThan(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dir);
    expect(warnings[0]).toContain("0755");
    expect(statSync(dir).mode & 0o777).toBe(0o755);
  });

  it("keeps a BOM and multi-byte text verbatim and base64-encodes bytes that are not UTF-8", () => {
    const log = openSessionLog({ dir: sessions(), warn: () => {} });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é😀"}')]);
    const latin1 = Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]); // {"é"} in Latin-1
    const surrogate = Buffer.from([0xed, 0xa0, 0x80]); // an encoded lone surrogate is not UTF-8
    log.frame("c2s", bom, "\n", false);
    log.frame("s2c", latin1, "\n", true);
    log.frame("s2c", surrogate, "\n", true);
    log.close();
    const [a, b, c] = readRecords(log.path as string);
    expect(a).toMatchObject({ size: bom.length });
    expect(Buffer.from((a as { text: string }).text, "utf8").equals(bom)).toBe(true);
    expect(b).not.toHaveProperty("text");
    expect(Buffer.from((b as { base64: string }).base64, "base64").equals(latin1)).toBe(true);
    expect(Buffer.from((c as { base64: string }).base64, "base64").equals(surrogate)).toBe(true);
  });

  it("truncates frames over maxFrameBytes, keeping the head and the whole frame's sha256", () => {
    const log = openSessionLog({ dir: sessions(), maxFrameBytes: 100, warn: () => {} });
    const big = Buffer.from(`{"data":"${"x".repeat(1000)}"}`);
    const cutInChar = Buffer.from("a".repeat(99) + "é" + "b".repeat(50)); // é spans bytes 99-100
    const binary = Buffer.alloc(300, 0xff);
    const exact = Buffer.from("y".repeat(100));
    for (const f of [big, cutInChar, binary, exact]) log.frame("s2c", f, "\n", false);
    log.close();
    const [r1, r2, r3, r4] = readRecords(log.path as string) as Record<string, unknown>[];
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    expect(r1).toMatchObject({
      size: big.length,
      truncated: true,
      sha256: sha(big),
      text: big.subarray(0, 100).toString(),
    });
    expect(r2).toMatchObject({
      size: cutInChar.length,
      truncated: true,
      sha256: sha(cutInChar),
      text: "a".repeat(99),
    });
    expect(r3).toMatchObject({ size: 300, truncated: true, sha256: sha(binary) });
    expect(Buffer.from(r3?.["base64"] as string, "base64").equals(binary.subarray(0, 100))).toBe(true);
    expect(r4).toMatchObject({ size: 100, text: "y".repeat(100) });
    expect(r4).not.toHaveProperty("truncated");
    expect(r4).not.toHaveProperty("sha256");
  });

  it("keeps frames up to 16 MiB whole by default and truncates larger ones", () => {
    const log = openSessionLog({ dir: sessions(), maxBytes: 0, warn: () => {} });
    const limit = 16 * 1024 * 1024;
    const whole = Buffer.alloc(limit, 0x61);
    const over = Buffer.alloc(limit + 1, 0x62);
    log.frame("s2c", whole, "\n", true);
    log.frame("s2c", over, "\n", true);
    log.close();
    const [a, b] = readRecords(log.path as string) as Record<string, unknown>[];
    expect((a?.["text"] as string).length).toBe(limit);
    expect(a).not.toHaveProperty("truncated");
    expect(b).toMatchObject({
      size: limit + 1,
      truncated: true,
      sha256: createHash("sha256").update(over).digest("hex"),
    });
    // A frame over the limit keeps only a short head: enough to tell what it was.
    expect(b?.["text"]).toBe("b".repeat(TRUNCATED_HEAD_BYTES));
  });

  it("keeps a frame the relay parsed as raw JSON: the exact bytes, unescaped, last in the line", () => {
    const log = openSessionLog({ dir: sessions(), warn: () => {} });
    // Duplicate keys, escapes and non-ASCII must all come back byte for byte.
    const frame = Buffer.from(
      '{"jsonrpc":"2.0","id":7,"method":"a","method":"b","params":{"s":"\\u00e9 é \\"q\\""}}',
    );
    const withCr = Buffer.from('{"id":1,\r"x":2}');
    const notUtf8 = Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    log.frame("c2s", frame, "\n", false, true);
    log.frame("c2s", withCr, "\n", false, true);
    log.frame("c2s", notUtf8, "\n", false, true);
    log.frame("c2s", frame, "\n", false, false);
    log.close();
    const lines = readFileSync(log.path as string, "utf8").split("\n");
    const raw = lines.find((l) => l.includes('"json":')) ?? "";
    expect(raw.endsWith(`,"json":${frame.toString()}}`)).toBe(true);
    expect((JSON.parse(raw) as { json: unknown }).json).toEqual(JSON.parse(frame.toString()));
    expect(lines.filter((l) => l.includes('"json":'))).toHaveLength(1);
    const [r1, r2, r3, r4] = readRecords(log.path as string).filter((r) => r.type === "frame") as Array<
      Record<string, unknown>
    >;
    expect(r1).toMatchObject({ size: frame.length, text: frame.toString() });
    expect(r1).not.toHaveProperty("json");
    expect(r2).toMatchObject({ text: withCr.toString() });
    expect(Buffer.from(r3?.["base64"] as string, "base64").equals(notUtf8)).toBe(true);
    expect(r4).toMatchObject({ text: frame.toString() });
  });

  it("says in the header that it marks effectgate's frames, and marks exactly those (decision 0112)", () => {
    const log = openSessionLog({ dir: sessions(), now: steppingClock() });
    log.header(sampleHeader);
    const refusal = '{"jsonrpc":"2.0","id":1,"result":{"isError":true}}';
    log.frame("s2c", Buffer.from(refusal), "\n", false, true, "effectgate");
    log.frame("s2c", Buffer.from('{"a":\r1}'), "\n", false, true, "effectgate");
    log.frame("s2c", Buffer.from(refusal), "\n", false, true);
    log.close();
    const file = join(sessions(), logFiles(sessions())[0] as string);
    const recs = readRecords(file);
    expect(recs[0]).toMatchObject({ type: "header", marksOwn: true });
    // Marked whether the bytes are kept as raw JSON or as text; a server's frame is not.
    expect(recs.slice(1).map((r) => (r.type === "frame" ? (r.by ?? null) : "?"))).toEqual([
      "effectgate",
      "effectgate",
      null,
    ]);
    // Raw JSON stays the last member, after `by`.
    expect(readFileSync(file, "utf8").split("\n")[1]).toMatch(/"by":"effectgate","json":\{/);
  });

  it("records stderr up to the cap, then one stderr-capped event and nothing more", () => {
    const log = openSessionLog({ dir: sessions(), maxStderrBytes: 100, warn: () => {} });
    for (let i = 0; i < 10; i++) log.stderr(`line ${i} ${"-".repeat(23)}`); // 30 bytes each
    log.event("after", {});
    log.close();
    const recs = readRecords(log.path as string);
    expect(recs.filter((r) => r.type === "stderr")).toHaveLength(3);
    const capped = recs.filter((r) => r.type === "event" && r.ev === "stderr-capped");
    expect(capped).toHaveLength(1);
    expect(capped[0]).toMatchObject({ data: { afterBytes: 90 } });
    expect(recs.map((r) => r.type)).toEqual(["stderr", "stderr", "stderr", "event", "event"]);
  });

  it("defaults to a 1 MiB stderr cap", () => {
    const log = openSessionLog({ dir: sessions(), warn: () => {} });
    const line = "e".repeat(1024);
    for (let i = 0; i < 1030; i++) log.stderr(line);
    log.close();
    const recs = readRecords(log.path as string);
    expect(recs.filter((r) => r.type === "stderr")).toHaveLength(1024);
    expect(recs.at(-1)).toMatchObject({ ev: "stderr-capped", data: { afterBytes: 1024 * 1024 } });
  });

  it("turns data JSON cannot hold into a log-error event instead of throwing", () => {
    const log = openSessionLog({ dir: sessions(), warn: () => {} });
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(() => log.event("weird", { n: 1n })).not.toThrow();
    expect(() => log.event("loop", cyclic)).not.toThrow();
    log.event("fine", {});
    log.close();
    const recs = readRecords(log.path as string);
    expect(recs.map((r) => (r.type === "event" ? r.ev : r.type))).toEqual(["log-error", "log-error", "fine"]);
    expect(recs[0]).toMatchObject({ seq: 1, data: { record: "event", ev: "weird" } });
  });

  it("ignores records after close", () => {
    const log = openSessionLog({ dir: sessions(), warn: () => {} });
    log.event("before", {});
    log.close();
    log.event("after", {});
    log.close();
    expect(readRecords(log.path as string)).toHaveLength(1);
    expect(basename(log.path as string)).toMatch(/\.jsonl$/);
  });
});

describe("openSessionLog never throws", () => {
  it("survives a clock that throws or returns an invalid date", () => {
    const dir = join(process.env["EFFECTGATE_HOME"] as string, "sessions");
    let calls = 0;
    const log = openSessionLog({
      dir,
      warn: () => {},
      now: () => {
        calls++;
        if (calls % 2) throw new Error("clock broke");
        return new Date(Number.NaN);
      },
    });
    log.event("still here", {});
    log.close();
    const recs = readRecords(log.path as string);
    expect(recs).toHaveLength(1);
    expect(recs[0]?.t).toMatch(/^\d{4}-/);
  });
});
