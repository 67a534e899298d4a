import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { escapeForTerminal, terminalSafeJson } from "../../../src/core/replay/escape.js";
import { formatFile, formatOffset } from "../../../src/core/replay/format.js";
import { buildTranscript } from "../../../src/core/replay/transcript.js";
import { parseLogText } from "../../../src/log/reader.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "replay");
const FIXTURE = join(FIXTURES, "session.jsonl");
const GOLDEN = join(ROOT, "tests", "core", "replay", "golden", "session.txt");
const CLI = join(ROOT, "dist", "main.js");

function freshHome(): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "eg-replay-"));
  return {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    EFFECTGATE_HOME: join(home, ".effectgate"),
  } as Record<string, string>;
}

function replay(args: string[], env: Record<string, string>, cwd = FIXTURES) {
  const r = spawnSync(process.execPath, [CLI, "replay", ...args], { cwd, env, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  // `npm test` builds first; run `npx tsc -p tsconfig.build.json` before running this file alone.
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});

describe("replay transcript", () => {
  const golden = readFileSync(GOLDEN, "utf8").split("\n");

  it("matches the golden transcript line by line (in process)", () => {
    const lines = formatFile("session.jsonl", buildTranscript(parseLogText(readFileSync(FIXTURE, "utf8"))));
    lines.push("");
    for (let i = 0; i < Math.max(lines.length, golden.length); i++)
      expect(lines[i], `line ${i + 1}`).toBe(golden[i]);
  });

  it("matches the golden transcript from the built CLI, and is the same on every run", () => {
    const env = freshHome();
    const a = replay(["session.jsonl"], env);
    const b = replay(["session.jsonl"], env);
    expect(a.code).toBe(0);
    // The transcript, then the totals over every session shown.
    expect(a.out.split("\n")).toEqual([
      ...golden.slice(0, -1),
      "== totals: 1 session, 5 calls, 1 refused, 1 failed, 1 unanswered; 1 session tainted; 1 pin event; 1 server stderr line; 1 unreadable line",
      "",
    ]);
    expect(b.out).toBe(a.out);
  });

  it("reports the torn line with its number and goes on", () => {
    const out = replay(["session.jsonl"], freshHome()).out;
    expect(out).toMatch(/\*\* INVALID {2}line 11: not valid JSON/);
    const after = out.slice(out.indexOf("line 11:"));
    expect(after).toContain('tools/call  id="3"  tool=write_file');
    expect(out).toContain("1 unreadable lines");
  });

  it("never lets control or bidi characters from the server reach the terminal", () => {
    const out = replay(["session.jsonl"], freshHome()).out;
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain("tool=evil\\x1b[2J\\u202etool");
    expect(out).toContain("\\x1b]0;pwned\\x07");
    expect(out).toContain("Unknown tool\\x9b31m");
  });

  it("summarises calls: refused, failed, unanswered, per tool", () => {
    const [s] = buildTranscript(parseLogText(readFileSync(FIXTURE, "utf8")));
    expect(s?.summary.toJSON()).toMatchObject({
      protocolVersion: "2025-11-25",
      client: "claude-code 2.1.0",
      server: "secure-filesystem-server 0.2.0",
      toolsAdvertised: 3,
      calls: 5,
      refused: 1,
      failed: 1,
      unanswered: 1,
      callsPerTool: { edit_file: 1, "evil\u001b[2J\u202etool": 1, read_text_file: 2, write_file: 1 },
    });
  });

  it("--json gives the same content as structured, terminal-safe records", () => {
    const r = replay(["--json", "session.jsonl"], freshHome());
    expect(r.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    const records = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ type: "file", file: "session.jsonl", sessions: 1 });
    const invalid = records.find((x) => x["kind"] === "invalid");
    expect(invalid).toMatchObject({ line: 11, marker: "INVALID" });
    const tool = records.find((x) => x["kind"] === "request" && x["id"] === 4);
    expect(tool?.["tool"]).toBe("evil\u001b[2J\u202etool");
    const summary = records.find((x) => x["type"] === "summary");
    expect(summary).toMatchObject({ calls: 5, refused: 1, failed: 1, unanswered: 1 });
    const response = records.find((x) => x["kind"] === "response" && x["id"] === 2);
    expect(response).toMatchObject({ answers: "tools/call", latencyMs: 45, tool: "read_text_file" });
  });
});

describe("replay of the sessions folder", () => {
  it("says so when nothing was recorded yet", () => {
    const env = freshHome();
    const r = replay([], env);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`no sessions recorded at ${join(env["EFFECTGATE_HOME"] as string, "sessions")} yet\n`);
  });

  it("reads $EFFECTGATE_HOME/sessions oldest first", () => {
    const env = freshHome();
    const dir = join(env["EFFECTGATE_HOME"] as string, "sessions");
    mkdirSync(dir, { recursive: true });
    const rec = (sid: string, t: string) =>
      `${JSON.stringify({ seq: 1, t, sid, type: "stderr", text: `hello from ${sid}` })}\n`;
    writeFileSync(join(dir, "20261102T100000.000Z-bbbb.jsonl"), rec("bbbb", "2026-11-02T10:00:00.000Z"));
    writeFileSync(join(dir, "20261101T100000.000Z-aaaa.jsonl"), rec("aaaa", "2026-11-01T10:00:00.000Z"));
    const out = replay([], env).out;
    expect(out.indexOf("== 20261101T100000.000Z-aaaa.jsonl")).toBeGreaterThanOrEqual(0);
    expect(out.indexOf("== 20261101T100000.000Z-aaaa.jsonl")).toBeLessThan(
      out.indexOf("== 20261102T100000.000Z-bbbb.jsonl"),
    );
    expect(out).toContain("(no header record");
  });

  it("rejects a path that does not exist with exit 2", () => {
    const r = replay(["nope.jsonl"], freshHome());
    expect(r.code).toBe(2);
    expect(r.err).toContain('got "nope.jsonl", which does not exist');
  });
});

describe("escaping and reading", () => {
  it("escapes C0, DEL, C1, bidi, zero-width and lone surrogates, and nothing else", () => {
    expect(escapeForTerminal("a\u001b[31mb")).toBe("a\\x1b[31mb");
    expect(escapeForTerminal("\r\n\t\u007f\u0085\u009b")).toBe("\\x0d\\x0a\\x09\\x7f\\x85\\x9b");
    expect(escapeForTerminal("x\u202ey\u2066z\u200b\u2028")).toBe("x\\u202ey\\u2066z\\u200b\\u2028");
    expect(escapeForTerminal("\ud800x")).toBe("\\ud800x");
    expect(escapeForTerminal("été 中文 😀 C:\\Users")).toBe("été 中文 😀 C:\\Users");
    expect(JSON.parse(terminalSafeJson({ s: "\u009b\u202e" }))).toEqual({ s: "\u009b\u202e" });
    expect(terminalSafeJson({ s: "\u009b\u202e" })).toBe('{"s":"\\u009b\\u202e"}');
  });

  it("formats offsets past an hour", () => {
    expect(formatOffset(3_723_004)).toBe("+1:02:03.004");
    expect(formatOffset(null)).toBe("+?:??:??.???");
  });

  it("reads CRLF logs, skips blank lines and names the field of a record that does not fit", () => {
    const ok = JSON.stringify({ seq: 1, t: "2026-11-02T10:00:00.000Z", sid: "s", type: "stderr", text: "x" });
    const bad = JSON.stringify({ seq: 2, t: "yesterday", sid: "s", type: "stderr", text: "x" });
    const lines = parseLogText(`${ok}\r\n\r\n${bad}\r\n{"seq":`);
    expect(lines.map((l) => l.line)).toEqual([1, 3, 4]);
    expect("record" in (lines[0] as object)).toBe(true);
    expect((lines[1] as { error: string }).error).toMatch(/^not a session-log record: t:/);
    expect((lines[2] as { error: string }).error).toMatch(/^not valid JSON/);
  });
});
