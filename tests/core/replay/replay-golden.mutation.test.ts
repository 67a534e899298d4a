// Replay in process: the golden transcript of the recorded fixture session, its --json records,
// and escaping. (tests/replay spawns the CLI for the same file; Stryker's sandbox cannot.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clip, escapeForTerminal, terminalSafeJson } from "../../../src/core/replay/escape.js";
import { formatFile, formatLatency, formatOffset, jsonRecords } from "../../../src/core/replay/format.js";
import { buildTranscript } from "../../../src/core/replay/transcript.js";
import { parseLogText } from "../../../src/log/reader.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const FIXTURE = join(ROOT, "tests", "fixtures", "replay", "session.jsonl");
const GOLDEN = join(ROOT, "tests", "core", "replay", "golden", "session.txt");

// Built inside each test (not while the file loads), so coverage is counted per test.
const fixtureSessions = () => buildTranscript(parseLogText(readFileSync(FIXTURE, "utf8")));

describe("the recorded fixture session", () => {
  it("renders exactly the golden transcript", () => {
    const sessions = fixtureSessions();
    const golden = readFileSync(GOLDEN, "utf8").split("\n");
    const lines = [...formatFile("session.jsonl", sessions), ""];
    for (let i = 0; i < Math.max(lines.length, golden.length); i++)
      expect(lines[i], `line ${i + 1}`).toBe(golden[i]);
  });

  it("summarises it", () => {
    const sessions = fixtureSessions();
    expect(sessions[0]?.summary.toJSON()).toEqual({
      protocolVersion: "2025-11-25",
      client: "claude-code 2.1.0",
      server: "secure-filesystem-server 0.2.0",
      toolsAdvertised: 3,
      tools: expect.any(Array),
      calls: 5,
      refused: 1,
      failed: 1,
      unanswered: 1,
      answersWithoutRequest: 0,
      earlyAnswers: 0,
      callsPerTool: { edit_file: 1, "evil\u001b[2J\u202etool": 1, read_text_file: 2, write_file: 1 },
      invalidLines: 1,
    });
    const tools = sessions[0]?.summary.toJSON().tools ?? [];
    expect(tools).toHaveLength(3);
    expect([...tools].sort()).toEqual(tools);
  });

  it("gives the same content as structured records for --json", () => {
    const sessions = fixtureSessions();
    const records = jsonRecords("session.jsonl", sessions) as Record<string, unknown>[];
    expect(records[0]).toEqual({ type: "file", file: "session.jsonl", sessions: 1 });
    expect(records[1]).toMatchObject({
      type: "session",
      file: "session.jsonl",
      sid: "a1b2c3d4",
      start: "2026-11-02T09:00:00.000Z",
      header: { name: "fs", level: "enforce", from: "flag", policy: "default", platform: "linux" },
    });
    const items = records.filter((r) => r["type"] === "item");
    expect(items).toHaveLength(sessions[0]?.items.length ?? -1);
    expect(items.every((r) => r["file"] === "session.jsonl" && r["sid"] === "a1b2c3d4")).toBe(true);
    expect(records.find((r) => r["kind"] === "response" && r["id"] === 2)).toMatchObject({
      answers: "tools/call",
      latencyMs: 45,
      tool: "read_text_file",
      outcome: "result",
    });
    expect(records.find((r) => r["kind"] === "invalid")).toMatchObject({ line: 11, marker: "INVALID" });
    expect(records[records.length - 1]).toMatchObject({
      type: "summary",
      file: "session.jsonl",
      sid: "a1b2c3d4",
      calls: 5,
      refused: 1,
    });
    expect(jsonRecords("empty.jsonl", [])).toEqual([{ type: "file", file: "empty.jsonl", sessions: 0 }]);
  });
});

describe("escaping, clipping and times", () => {
  it("escapes C0, DEL, C1, bidi, zero-width and lone surrogates, and nothing else", () => {
    expect(escapeForTerminal("a\u001b[31mb")).toBe("a\\x1b[31mb");
    expect(escapeForTerminal("\r\n\t\u007f\u0085\u009b")).toBe("\\x0d\\x0a\\x09\\x7f\\x85\\x9b");
    expect(escapeForTerminal("x\u202ey\u2066z\u200b\u2028")).toBe("x\\u202ey\\u2066z\\u200b\\u2028");
    expect(escapeForTerminal("\ud800x")).toBe("\\ud800x");
    expect(escapeForTerminal("x\udc00")).toBe("x\\udc00");
    expect(escapeForTerminal("\ud800\ud800\udc00")).toBe("\\ud800\ud800\udc00");
    expect(escapeForTerminal("été 中文 😀 C:\\Users")).toBe("été 中文 😀 C:\\Users");
    expect(escapeForTerminal("a\u0000b\u0000")).toBe("a\\x00b\\x00");
  });

  it("writes JSON whose values are unchanged but which prints safely", () => {
    expect(terminalSafeJson({ s: "\u009b\u202e" })).toBe('{"s":"\\u009b\\u202e"}');
    expect(JSON.parse(terminalSafeJson({ s: "\u009b\u202e\u200b x" }))).toEqual({
      s: "\u009b\u202e\u200b x",
    });
    expect(terminalSafeJson({ s: "\ud800" })).toBe('{"s":"\\ud800"}');
    expect(terminalSafeJson(["a", 1])).toBe('["a",1]');
  });

  it("clips long text, saying how much was cut", () => {
    expect(clip("abcdef", 6)).toBe("abcdef");
    expect(clip("abcdefg", 6)).toBe("abcdef… (1 more chars)");
    expect(clip("", 0)).toBe("");
  });

  it("formats offsets and latencies", () => {
    expect(formatOffset(3_723_004)).toBe("+1:02:03.004");
    expect(formatOffset(0)).toBe("+0:00:00.000");
    expect(formatOffset(59_999)).toBe("+0:00:59.999");
    expect(formatOffset(60_000)).toBe("+0:01:00.000");
    expect(formatOffset(3_600_000)).toBe("+1:00:00.000");
    expect(formatOffset(-1500)).toBe("-0:00:01.500");
    expect(formatOffset(1.6)).toBe("+0:00:00.002");
    expect(formatOffset(null)).toBe("+?:??:??.???");
    expect(formatLatency(999.4)).toBe("999ms");
    expect(formatLatency(1000)).toBe("1.00s");
    expect(formatLatency(12_345)).toBe("12.35s");
  });
});
