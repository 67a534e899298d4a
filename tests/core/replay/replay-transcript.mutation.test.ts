// Replay transcripts built from log entries made in the test: sessions, frames that are not
// messages, responses and their outcomes, every kind of event, and the per-session summary.
import { describe, expect, it } from "vitest";
import type { LogEntry, RecordLike } from "../../../src/core/replay/entries.js";
import { formatFile, formatItem, formatSession } from "../../../src/core/replay/format.js";
import {
  classify,
  failureOf,
  firstText,
  idKey,
  parseFrame,
  toolOf,
} from "../../../src/core/replay/messages.js";
import { newSummary, noteHandshake } from "../../../src/core/replay/summary.js";
import type { ReplaySession } from "../../../src/core/replay/replay-item.js";
import { buildTranscript } from "../../../src/core/replay/transcript.js";

const T0 = Date.parse("2026-11-02T09:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

let seq = 0;
function rec(line: number, r: Record<string, unknown>, sid = "s1", ms = 0): LogEntry {
  seq += 1;
  return { line, record: { seq, t: at(ms), sid, ...r } as unknown as RecordLike };
}
const frame = (line: number, dir: "c2s" | "s2c", msg: unknown, ms = 0, sid = "s1"): LogEntry =>
  rec(line, { type: "frame", dir, size: 10, text: JSON.stringify(msg) }, sid, ms);
const event = (line: number, ev: string, data: Record<string, unknown>, ms = 0): LogEntry =>
  rec(line, { type: "event", ev, data }, "s1", ms);
const header = (over: Record<string, unknown> = {}): LogEntry =>
  rec(1, {
    type: "header",
    server: ["node", "srv.js"],
    name: null,
    cwd: "/w",
    platform: "linux",
    level: "observe",
    from: "default",
    policy: null,
    ...over,
  });

/** The item lines of a session without their time column. */
const bodies = (s: ReplaySession | undefined): string[] =>
  (s?.items ?? []).map((i) => formatItem(i).replace(/^ {2}\S+ {2}/, ""));

describe("sessions", () => {
  it("starts a session per sid and keeps bad lines before the first record with it", () => {
    const entries: LogEntry[] = [
      { line: 1, error: "torn" },
      { line: 2, error: "foreign" },
      rec(3, { type: "stderr", text: "hello" }, "A", 0),
      { line: 4, error: "again" },
      rec(5, { type: "stderr", text: "bye" }, "B", 2000),
    ];
    const [a, b, c] = buildTranscript(entries);
    expect(c).toBeUndefined();
    expect(a?.sid).toBe("A");
    expect(b?.sid).toBe("B");
    expect(bodies(a)).toEqual([
      "** INVALID  line 1: torn",
      "** INVALID  line 2: foreign",
      "2> STDERR  hello",
      "** INVALID  line 4: again",
    ]);
    expect(a?.summary.toJSON().invalidLines).toBe(3);
    expect(b?.summary.toJSON().invalidLines).toBe(0);
    // B's times count from B's own first record.
    expect(b?.items[0]?.offsetMs).toBe(0);
    expect(b?.start).toBe(at(2000));
  });

  it("a file of bad lines only is one unknown session; an empty file is none", () => {
    const [u, v] = buildTranscript([{ line: 7, error: "x" }]);
    expect(v).toBeUndefined();
    expect(u?.sid).toBe("(unknown)");
    expect(u?.start).toBeNull();
    expect(formatSession(u as ReplaySession).slice(0, 3)).toEqual([
      "session (unknown)  started ?",
      "  (no header record: the start of this session is missing)",
      "  +?:??:??.???  ** INVALID  line 7: x",
    ]);
    expect(buildTranscript([])).toEqual([]);
    expect(formatFile("f.jsonl", [])).toEqual(["== f.jsonl", "  (empty log)"]);
  });

  it("prints the header, with and without a name and a policy", () => {
    const [s] = buildTranscript([header()]);
    expect(formatSession(s as ReplaySession).slice(0, 3)).toEqual([
      `session s1  started ${at(0)}`,
      "  server: node srv.js",
      "  cwd /w  platform linux  level observe (default)  policy none",
    ]);
    const [n] = buildTranscript([
      header({ name: "fs\u001b", policy: { source: "/p.yaml", sha256: "0".repeat(64) } }),
    ]);
    expect(formatSession(n as ReplaySession).slice(1, 3)).toEqual([
      "  server: node srv.js  (name fs\\x1b)",
      "  cwd /w  platform linux  level observe (default)  policy /p.yaml",
    ]);
    expect(n?.header?.policy).toBe("/p.yaml");
  });

  it("counts time from the first record, and shows ? when a time cannot be read", () => {
    const bad: LogEntry = {
      line: 2,
      record: { seq: 9, t: "not a time", sid: "s1", type: "stderr", text: "x" } as RecordLike,
    };
    const [s] = buildTranscript([rec(1, { type: "stderr", text: "a" }, "s1", 0), bad]);
    expect(s?.items.map((i) => i.offsetMs)).toEqual([0, null]);
    expect(formatItem(s?.items[1] as never)).toBe("  +?:??:??.???  2> STDERR  x");
  });
});

describe("frames", () => {
  it("describes frames that are not messages", () => {
    const [s] = buildTranscript([
      rec(1, { type: "frame", dir: "s2c", size: 5 }),
      rec(2, { type: "frame", dir: "s2c", size: 12, text: "{not json" }),
      rec(3, { type: "frame", dir: "c2s", size: 99, text: '{"a":', truncated: true }),
      rec(4, { type: "frame", dir: "c2s", size: 2, text: "{}", nonJson: true }),
      frame(5, "c2s", [1, 2]),
      frame(6, "c2s", "str"),
      frame(7, "s2c", { jsonrpc: "2.0" }),
      frame(8, "s2c", { id: 1 }),
    ]);
    expect(bodies(s)).toEqual([
      "<-   (not UTF-8, 5 bytes)",
      "<-   (not JSON) {not json",
      '->   (truncated frame, 99 bytes) {"a":',
      "->   (not JSON) {}",
      "->*  expected a JSON-RPC object, got number",
      "->*  expected a JSON-RPC object, got number",
      "->   expected a JSON-RPC object, got string",
      "<-   neither a request, a notification nor a response",
      "<-   neither a request, a notification nor a response",
    ]);
    expect(s?.items[4]).toMatchObject({ batch: true, kind: "frame", dir: "c2s" });
    expect(s?.items[6]).not.toHaveProperty("batch");
  });

  it("pairs responses with requests in the other direction, by typed id", () => {
    const [s] = buildTranscript([
      frame(1, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } }, 0),
      frame(2, "s2c", { jsonrpc: "2.0", id: "1", result: {} }, 5),
      frame(3, "s2c", { jsonrpc: "2.0", id: 1, result: {} }, 1500),
      frame(4, "s2c", { jsonrpc: "2.0", id: 1, result: {} }, 1600),
      frame(5, "s2c", { jsonrpc: "2.0", id: 7, method: "roots/list" }, 1700),
      frame(6, "c2s", { jsonrpc: "2.0", id: 7, result: { roots: [] } }, 1710),
    ]);
    expect(bodies(s)).toEqual([
      "->   tools/call  id=1  tool=t",
      // A server answer no request waits for is marked and counted (decision 0065).
      '** UNMATCHED  <-   result  <- (no matching request)  id="1"',
      "<-   result  <- tools/call  id=1  tool=t  1.50s",
      "** UNMATCHED  <-   result  <- (no matching request)  id=1",
      "<-   roots/list  id=7",
      "->   result  <- roots/list  id=7  10ms",
    ]);
    expect(s?.summary.toJSON()).toMatchObject({ answersWithoutRequest: 2, unanswered: 0 });
    expect(s?.items[2]).toMatchObject({ latencyMs: 1500, answers: "tools/call", tool: "t" });
    expect(s?.items[3]).not.toHaveProperty("answers");
    expect(s?.items[3]).not.toHaveProperty("latencyMs");
    expect(s?.items[5]).not.toHaveProperty("tool");
  });

  it("names each outcome: result, error with and without code, tool error, refusal", () => {
    const call = (id: number, name: string) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name },
    });
    const [s] = buildTranscript([
      frame(1, "c2s", call(1, "a")),
      frame(2, "s2c", { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "boom" } }),
      frame(3, "c2s", call(2, "b")),
      frame(4, "s2c", { jsonrpc: "2.0", id: 2, error: { message: "plain" } }),
      frame(5, "c2s", call(3, "c")),
      frame(6, "s2c", {
        jsonrpc: "2.0",
        id: 3,
        result: { isError: true, content: [{ type: "image" }, { type: "text", text: "no such file" }] },
      }),
      frame(7, "c2s", call(4, "d")),
      event(8, "refused", { id: 4, reason: "policy says no" }),
      frame(9, "s2c", { jsonrpc: "2.0", id: 4, error: { code: -32001, message: "refused" } }),
      frame(10, "c2s", call(5, "a")),
      frame(11, "s2c", { jsonrpc: "2.0", id: 5, result: { isError: false, content: [] } }),
      frame(12, "c2s", call(6, "e")),
    ]);
    const responses = s?.items.filter((i) => i.kind === "response") ?? [];
    expect(responses.map((r) => [r.outcome, r.detail])).toEqual([
      ["error", "-32000 boom"],
      ["error", "plain"],
      ["tool-error", "no such file"],
      ["refusal", "-32001 refused"],
      ["result", undefined],
    ]);
    expect(bodies(s).filter((b) => b.startsWith("<-"))).toEqual([
      '<-   error  <- tools/call  id=1  tool=a  0ms  "-32000 boom"',
      '<-   error  <- tools/call  id=2  tool=b  0ms  "plain"',
      '<-   tool error  <- tools/call  id=3  tool=c  0ms  "no such file"',
      '<-   refused by effectgate  <- tools/call  id=4  tool=d  0ms  "-32001 refused"',
      "<-   result  <- tools/call  id=5  tool=a  0ms",
    ]);
    expect(s?.summary.toJSON()).toMatchObject({
      calls: 6,
      refused: 1,
      failed: 3,
      unanswered: 1,
      callsPerTool: { a: 2, b: 1, c: 1, d: 1, e: 1 },
    });
  });

  it("counts only client calls of tools/call, names nameless ones, and clips long details", () => {
    const long = "x".repeat(250);
    const [s] = buildTranscript([
      frame(1, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }),
      frame(2, "s2c", { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "srv" } }),
      frame(3, "c2s", { jsonrpc: "2.0", id: 9, result: {} }),
      frame(4, "c2s", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "B" } }),
      frame(5, "c2s", { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "a" } }),
      frame(6, "s2c", { jsonrpc: "2.0", id: 3, error: { code: 1, message: long } }),
    ]);
    const m = s?.summary.toJSON();
    expect(m?.calls).toBe(3);
    expect(Object.keys(m?.callsPerTool ?? {})).toEqual(["(no name)", "B", "a"]);
    expect(m?.unanswered).toBe(2);
    expect(bodies(s)[5]).toBe(
      `<-   error  <- tools/call  id=3  tool=a  0ms  "${`1 ${long}`.slice(0, 200)}… (52 more chars)"`,
    );
  });
});

describe("handshake and tool list", () => {
  it("takes protocol, client and server from frames, the first source winning", () => {
    const [s] = buildTranscript([
      frame(1, "c2s", {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2024-01-01", clientInfo: { name: "cli" } },
      }),
      frame(2, "s2c", {
        jsonrpc: "2.0",
        id: 0,
        result: { protocolVersion: "2025-11-25", serverInfo: { name: "srv", version: "2" } },
      }),
      event(3, "handshake", { protocolVersion: "1999", clientInfo: { name: "other" } }),
      frame(4, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/list" }),
      frame(5, "s2c", {
        jsonrpc: "2.0",
        id: 1,
        result: { tools: [{ name: "b" }, { name: "a" }, { title: "x" }, "c", { name: "a" }] },
      }),
      frame(6, "c2s", { jsonrpc: "2.0", id: 2, method: "tools/list" }),
      frame(7, "s2c", { jsonrpc: "2.0", id: 2, result: { tools: "none" } }),
    ]);
    const m = s?.summary.toJSON();
    // The client's initialize does not carry the protocol the session runs; the answer does.
    expect(m).toMatchObject({ protocolVersion: "2025-11-25", client: "cli", server: "srv 2" });
    expect(m?.tools).toEqual(["a", "b"]);
    expect(m?.toolsAdvertised).toBe(2);
    expect(bodies(s)[2]).toBe(".. handshake  protocol 1999");
    const lines = formatSession(s as ReplaySession);
    expect(lines.slice(-3)).toEqual([
      "  summary:",
      "    protocol 2025-11-25; client cli; server srv 2",
      "    2 tools advertised, 0 calls, 0 refused, 0 failed, 0 unanswered",
    ]);
  });

  it("says unknown for what nobody said, and ? for a handshake without a protocol", () => {
    const [s] = buildTranscript([event(1, "handshake", {})]);
    expect(bodies(s)).toEqual([".. handshake  protocol ?"]);
    expect(formatSession(s as ReplaySession).slice(-2)).toEqual([
      "    protocol unknown; client unknown; server unknown",
      "    0 tools advertised, 0 calls, 0 refused, 0 failed, 0 unanswered",
    ]);
  });

  it("reads peers: name and version, name alone, or nothing", () => {
    const s = newSummary();
    noteHandshake(s, { protocolVersion: 5, clientInfo: { name: 1 }, serverInfo: "x" });
    expect([s.protocolVersion, s.client, s.server]).toEqual([null, null, null]);
    noteHandshake(s, {
      protocolVersion: "p",
      clientInfo: { name: "c", version: 3 },
      serverInfo: { name: "s" },
    });
    noteHandshake(s, { protocolVersion: "q", clientInfo: { name: "d" }, serverInfo: { name: "t" } });
    expect([s.protocolVersion, s.client, s.server]).toEqual(["p", "c", "s"]);
  });

  it("keeps its first summary once finished", () => {
    const s = newSummary();
    s.noteCall("k", "t");
    const first = s.toJSON();
    s.noteCall("k2", "t");
    expect(s.toJSON()).toBe(first);
    expect(first.calls).toBe(1);
    s.finish();
    expect(s.toJSON().calls).toBe(2);
  });
});

describe("events", () => {
  it("marks decisions by outcome and skips plain forwards", () => {
    const [s] = buildTranscript([
      event(1, "decision", { outcome: "forward", verdict: "allow", method: "tools/call", id: 1 }),
      event(2, "decision", {
        outcome: "refuse",
        verdict: "deny",
        rule: "paths.deny x",
        reason: "no",
        method: "tools/call",
        id: "r",
        tool: "w",
        tainted: true,
        unjudgeable: "dup key",
      }),
      event(3, "decision", { outcome: "ask", verdict: "confirm", reason: "sure?" }),
      event(4, "decision", { outcome: "forward-noted", verdict: "confirm", id: 2 }),
      event(5, "decision", { outcome: "forward", verdict: "deny", tainted: false }),
      event(6, "decision", {}),
      event(7, "decision", { outcome: "refuse", verdict: "deny", reason: "no id" }),
    ]);
    expect(bodies(s)).toEqual([
      '!! REFUSED  tools/call  id="r"  tool=w  deny by paths.deny x (tainted, unjudgeable: dup key): no',
      "?? ASK  decision  confirm: sure?",
      "~~ NOTED  decision  id=2  confirm: ",
      "~~ OBSERVED  decision  deny: ",
      "~~ OBSERVED  decision  ?: ",
      "!! REFUSED  decision  deny: no id",
    ]);
    expect(s?.items[0]).toMatchObject({ marker: "REFUSED", id: "r", tool: "w", method: "tools/call" });
    expect(s?.items[1]).not.toHaveProperty("id");
    expect(s?.items[1]).not.toHaveProperty("tool");
  });

  it("a refusal event marks each refused id once, from id and ids", () => {
    const [s] = buildTranscript([
      event(1, "decision", { outcome: "refuse", verdict: "deny", id: 1 }),
      event(2, "refusal", { id: 1, ids: [2, "3", null, 2], reason: "batch refused" }),
      event(3, "refused", { text: "only text", ids: [4] }),
      event(4, "refused", { ids: "5" }),
      frame(5, "c2s", { jsonrpc: "2.0", id: "3", method: "tools/call", params: { name: "t" } }),
      frame(6, "s2c", { jsonrpc: "2.0", id: "3", result: {} }),
      frame(7, "c2s", { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "t" } }),
      frame(8, "s2c", { jsonrpc: "2.0", id: 3, result: {} }),
    ]);
    expect(bodies(s).slice(0, 5)).toEqual([
      "!! REFUSED  decision  id=1  deny: ",
      "!! REFUSED  id=2  batch refused",
      '!! REFUSED  id="3"  batch refused',
      "!! REFUSED  id=4  only text",
      '->   tools/call  id="3"  tool=t',
    ]);
    expect(s?.items[5]?.outcome).toBe("refusal");
    // The number 3 was not refused: only the string "3" was.
    expect(s?.items[7]?.outcome).toBe("result");
    // Refusals of ids no frame showed are calls known only from their refusal (1, 2, "3", 4),
    // each counted once; the two frames are calls of their own (decision 0065).
    expect(s?.summary.toJSON()).toMatchObject({ calls: 6, refused: 4, unanswered: 0 });
  });

  it("words ask, taint, pin, log-gap and unknown events", () => {
    const [s] = buildTranscript([
      event(1, "ask", { id: 3, b: "two", a: { n: 1 } }),
      event(2, "ask", {}),
      event(3, "taint", { by: "fetch", reason: "source", why: "web" }),
      event(4, "taint", {}),
      event(5, "pin", { tool: "t", kind: "changed", severity: "high" }),
      event(6, "pin", {}),
      event(7, "log-gap", { lost: 4, error: "EIO" }),
      event(8, "log-gap", {}),
      event(9, "stderr-capped", { after: 10, note: "x y" }),
      event(10, "quiet", {}),
      rec(11, { type: "exit", code: null, signal: "SIGTERM", exitCode: 1 }),
      rec(12, { type: "exit", code: 3, signal: null, exitCode: 3 }),
    ]);
    expect(bodies(s)).toEqual([
      '?? ASK  id=3  a={"n":1} b=two id=3',
      "?? ASK",
      "^^ TAINT  by fetch (source): web",
      "^^ TAINT  by ? (?): ",
      "## PIN  tool=t  changed high",
      "## PIN  ?",
      "** GAP  4 records lost: EIO",
      "** GAP  ? records lost: ",
      ".. stderr-capped  after=10 note=x y",
      ".. quiet",
      "== server exit code=none signal=SIGTERM; effectgate exits 1",
      "== server exit code=3 signal=none; effectgate exits 3",
    ]);
    expect(s?.items[1]).not.toHaveProperty("id");
    expect(s?.items[5]).not.toHaveProperty("tool");
  });

  it("shows unreadable lines in the summary only when there were some", () => {
    const [s] = buildTranscript([rec(1, { type: "stderr", text: "a" }), { line: 2, error: "bad" }]);
    expect(formatSession(s as ReplaySession).at(-1)).toBe(
      "    0 tools advertised, 0 calls, 0 refused, 0 failed, 0 unanswered, 1 unreadable lines",
    );
  });

  it("lists calls per tool, right-aligned and escaped", () => {
    const [s] = buildTranscript([
      frame(1, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "z\u202e" } }),
    ]);
    expect(formatSession(s as ReplaySession).at(-1)).toBe("        1  z\\u202e");
    expect(formatFile("a\u001b.jsonl", [s as ReplaySession])[0]).toBe("== a\\x1b.jsonl");
  });
});

describe("messages", () => {
  it("classifies requests, notifications, responses and the rest", () => {
    expect(classify({ id: 1, method: "m", params: 2 })).toEqual({
      kind: "request",
      method: "m",
      id: 1,
      params: 2,
    });
    expect(classify({ id: "a", method: "m" })).toMatchObject({ kind: "request", id: "a" });
    expect(classify({ method: "m", params: [] })).toEqual({ kind: "notification", method: "m", params: [] });
    expect(classify({ id: 1, error: {} })).toMatchObject({ kind: "response", id: 1 });
    expect(classify({ id: 1, result: null })).toMatchObject({ kind: "response" });
    expect(classify({ id: true, result: 1 })).toMatchObject({ kind: "other" });
    expect(classify(null)).toEqual({ kind: "other", why: "expected a JSON-RPC object, got object" });
    expect(classify([{ id: 1, result: 0 }])).toEqual({
      kind: "other",
      why: "expected a JSON-RPC object, got a list",
    });
  });

  // Replay reads with the relay's classifier (core/wire/jsonrpc.ts). Where replay's old copy
  // named a frame otherwise than the relay judged it, the relay's reading now wins (issue 18).
  it("names what the relay could not read as the relay does, not as a notification or an answer", () => {
    // A judged call without an id is refused by the relay, never a notification to wave through.
    expect(classify({ jsonrpc: "2.0", method: "tools/call", params: { name: "t" } })).toEqual({
      kind: "other",
      why: "tools/call without an id",
    });
    // An id that is not a string or an integer makes a request ill-formed, not a notification.
    expect(classify({ id: null, method: "m" })).toEqual({
      kind: "other",
      why: "expected a string or integer id, got null",
    });
    expect(classify({ id: 1.5, method: "m" })).toMatchObject({ kind: "other" });
    // A non-string method is ill-formed, even beside a result.
    expect(classify({ id: 1, method: 5, result: 1 })).toEqual({
      kind: "other",
      why: "expected a string method, got number",
    });
    // An answer with a null id answers no request.
    expect(classify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } })).toEqual({
      kind: "other",
      why: "an answer with a null id: it answers no request",
    });
    // An empty batch is one ill-formed frame, shown, not a frame with nothing in it.
    expect(parseFrame("[]")).toEqual({ batch: true, messages: [{ kind: "other", why: "empty batch" }] });
  });

  it("keys ids by direction and type", () => {
    expect(idKey("c2s", 1)).not.toBe(idKey("c2s", "1"));
    expect(idKey("c2s", 1)).not.toBe(idKey("s2c", 1));
    expect(idKey("c2s", "x")).toBe(idKey("c2s", "x"));
  });

  it("parses frames and batches", () => {
    expect(parseFrame("nope")).toBeUndefined();
    expect(parseFrame('{"id":1,"result":0}')).toMatchObject({
      batch: false,
      messages: [{ kind: "response" }],
    });
    expect(parseFrame('[{"method":"a"},3]')).toMatchObject({
      batch: true,
      messages: [{ kind: "notification" }, { kind: "other" }],
    });
  });

  it("names the tool of tools/call only", () => {
    expect(toolOf("tools/call", { name: "t" })).toBe("t");
    expect(toolOf("prompts/get", { name: "t" })).toBeUndefined();
    expect(toolOf("tools/call", { name: 1 })).toBeUndefined();
    expect(toolOf("tools/call", ["t"])).toBeUndefined();
    expect(toolOf("tools/call", null)).toBeUndefined();
  });

  it("reads failures and first texts", () => {
    expect(failureOf({ error: { code: 4, message: "m" } })).toEqual({ code: 4, message: "m" });
    expect(failureOf({ error: { code: "4", message: 5 } })).toEqual({ message: "" });
    expect(failureOf({ error: "x", result: { isError: true } })).toEqual({ message: "" });
    expect(failureOf({ result: { isError: "yes" } })).toBeUndefined();
    expect(failureOf({ result: [] })).toBeUndefined();
    expect(firstText({ content: "t" })).toBeUndefined();
    expect(firstText({ content: [null, { text: 1 }, { text: "a" }, { text: "b" }] })).toBe("a");
    expect(firstText({ content: [] })).toBeUndefined();
  });
});

describe("what only the structured records show, and what is never taken as a fact", () => {
  it("marks stderr and unreadable lines, and keeps notifications apart from requests", () => {
    const [s] = buildTranscript([
      rec(1, { type: "stderr", text: "x" }),
      { line: 2, error: "bad" },
      frame(3, "c2s", { jsonrpc: "2.0", method: "notifications/x" }),
    ]);
    expect(s?.items.map((i) => [i.kind, i.marker])).toEqual([
      ["stderr", "STDERR"],
      ["invalid", "INVALID"],
      ["notification", undefined],
    ]);
    expect(s?.items[2]).toMatchObject({ method: "notifications/x", dir: "c2s" });
  });

  it("shows an allow that was not simply forwarded, and counts refusals from decisions", () => {
    const [s] = buildTranscript([
      frame(1, "c2s", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t" } }),
      frame(2, "c2s", { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "t" } }),
      event(3, "decision", { outcome: "refuse", verdict: "allow", id: 7, rule: "pin" }),
      event(4, "decision", { outcome: "forward-noted", verdict: "confirm", id: 8 }),
      frame(5, "s2c", { jsonrpc: "2.0", id: 8, result: {} }),
    ]);
    expect(bodies(s).slice(2, 4)).toEqual([
      "!! REFUSED  decision  id=7  allow by pin: ",
      "~~ NOTED  decision  id=8  confirm: ",
    ]);
    expect(s?.summary.toJSON()).toMatchObject({ calls: 2, refused: 1, unanswered: 0, failed: 0 });
  });

  it("reads only strings and ids from event data", () => {
    const [s] = buildTranscript([
      event(1, "decision", {
        outcome: "refuse",
        verdict: 1,
        rule: 5,
        reason: {},
        id: null,
        tool: 3,
        method: ["m"],
      }),
      event(2, "taint", { by: 1, reason: null, why: 2 }),
      event(3, "refused", { id: { x: 1 } }),
      event(4, "refused", { id: 9 }),
    ]);
    // The refused event right after a decision that named no usable id is that call's: one line,
    // one refused call, now known by its id (decision 0065).
    expect(bodies(s)).toEqual(["!! REFUSED  decision  ?: ", "^^ TAINT  by ? (?): "]);
    expect(s?.summary.toJSON()).toMatchObject({ calls: 1, refused: 1 });
  });

  it("takes the client only from its initialize, and the server only from the answer to it", () => {
    const [s] = buildTranscript([
      frame(1, "c2s", {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "t", clientInfo: { name: "no" } },
      }),
      frame(2, "s2c", {
        jsonrpc: "2.0",
        id: 2,
        method: "initialize",
        params: { clientInfo: { name: "server-side" } },
      }),
      frame(3, "c2s", { jsonrpc: "2.0", id: 3, method: "initialize", params: "x" }),
      frame(4, "c2s", { jsonrpc: "2.0", id: 4, method: "ping" }),
      frame(5, "s2c", {
        jsonrpc: "2.0",
        id: 4,
        result: { protocolVersion: "p", serverInfo: { name: "ping" }, tools: [{ name: "z" }] },
      }),
      frame(6, "c2s", { jsonrpc: "2.0", id: 6, method: "resources/list" }),
      frame(7, "s2c", { jsonrpc: "2.0", id: 6, result: { tools: [{ name: "y" }] } }),
    ]);
    expect(s?.summary.toJSON()).toMatchObject({
      client: null,
      server: null,
      protocolVersion: null,
      toolsAdvertised: 0,
    });
  });

  it("gives no latency when the answer's time cannot be read, and measures it from the request", () => {
    const bad: LogEntry = {
      line: 3,
      record: {
        seq: 99,
        t: "later",
        sid: "s1",
        type: "frame",
        dir: "s2c",
        size: 1,
        text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }),
      } as RecordLike,
    };
    const [s] = buildTranscript([
      rec(1, { type: "stderr", text: "start" }, "s1", 0),
      frame(2, "c2s", { jsonrpc: "2.0", id: 1, method: "ping" }, 100),
      bad,
      frame(4, "c2s", { jsonrpc: "2.0", id: 2, method: "ping" }, 100),
      frame(5, "s2c", { jsonrpc: "2.0", id: 2, result: {} }, 250),
    ]);
    expect(s?.items[2]).not.toHaveProperty("latencyMs");
    expect(s?.items[4]?.latencyMs).toBe(150);
  });

  it("counts tool errors and errors as failed, results not", () => {
    const [s] = buildTranscript([
      frame(1, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "b" } }),
      frame(2, "s2c", { jsonrpc: "2.0", id: 1, result: { isError: true, content: [] } }),
      frame(3, "c2s", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "a" } }),
      frame(4, "s2c", { jsonrpc: "2.0", id: 2, result: {} }),
      frame(5, "c2s", { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "c" } }),
      frame(6, "s2c", { jsonrpc: "2.0", id: 3, result: {} }),
    ]);
    expect(s?.summary.toJSON()).toMatchObject({ failed: 1, calls: 3 });
    expect(Object.keys(s?.summary.toJSON().callsPerTool ?? {})).toEqual(["a", "b", "c"]);
  });

  it("a refusal without words shows none", () => {
    const [s] = buildTranscript([event(1, "refusal", { id: 5 })]);
    expect(bodies(s)).toEqual(["!! REFUSED  id=5"]);
    expect(s?.items[0]?.detail).toBe("");
  });
});
