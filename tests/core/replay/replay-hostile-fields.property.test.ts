// Issue 17, breach 4: replay printed raw C1 controls, bidi overrides and line separators from ids
// (the server's own request id, an unmatched answer id, a client id). Every string a client, a
// server or a log line supplies is fed, hostile, into every field of every record kind, and the
// transcript (text and --json) must hold no character a terminal could act on or hide.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { terminalSafeJson } from "../../../src/core/replay/escape.js";
import { formatFile, jsonRecords } from "../../../src/core/replay/format.js";
import { buildTranscript } from "../../../src/core/replay/transcript.js";
import { parseLogText } from "../../../src/log/reader.js";

/** Anything hidden or acting on a terminal (src/core/text/terminal-text.ts), besides the line ends. */
const RAW = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

const HOSTILE_UNITS = [
  "a",
  "é",
  " ",
  '"',
  "\\",
  "\u001b",
  "\u001b[2J",
  "\r",
  "\n",
  "\t",
  "\u0000",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u202e",
  "\u2066",
  "\u2028",
  "\u2029",
  "\u200b",
  "\ufeff",
  "\u{e0041}",
  "\ud800",
  "\u061c",
  "\u00ad",
];
const hostile = fc
  .array(fc.constantFrom(...HOSTILE_UNITS), { minLength: 1, maxLength: 6 })
  .map((a) => a.join(""));
const id = fc.oneof(hostile, fc.integer({ min: -5, max: 5 }));

const T0 = Date.parse("2026-10-05T09:00:00.000Z");

/** One session's records, every string hostile; ids reused so that answers match calls, or not. */
const sessionArb = fc.record({
  sid: hostile,
  header: fc.record({
    server: fc.array(hostile, { minLength: 1, maxLength: 3 }),
    name: fc.option(hostile),
    cwd: hostile,
    platform: hostile,
    level: fc.constantFrom("observe", "enforce", "strict"),
    policy: fc.option(fc.record({ source: hostile, sha256: hostile })),
  }),
  items: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant("call"), id, method: hostile, tool: hostile, args: hostile }),
      fc.record({ kind: fc.constant("s2c-request"), id, method: hostile }),
      fc.record({ kind: fc.constant("notification"), dir: fc.constantFrom("c2s", "s2c"), method: hostile }),
      fc.record({ kind: fc.constant("result"), dir: fc.constantFrom("c2s", "s2c"), id, text: hostile }),
      fc.record({ kind: fc.constant("error"), id, message: hostile, code: fc.integer() }),
      fc.record({ kind: fc.constant("batch"), ids: fc.array(id, { maxLength: 3 }), method: hostile }),
      fc.record({ kind: fc.constant("not-json"), dir: fc.constantFrom("c2s", "s2c"), text: hostile }),
      fc.record({
        kind: fc.constant("head"),
        dir: fc.constantFrom("c2s", "s2c"),
        id,
        method: hostile,
        text: hostile,
      }),
      fc.record({ kind: fc.constant("bytes"), bytes: fc.uint8Array({ maxLength: 12 }) }),
      fc.record({ kind: fc.constant("stderr"), text: hostile }),
      fc.record({
        kind: fc.constant("event"),
        ev: fc.oneof(
          fc.constantFrom("decision", "refused", "refusal", "ask", "taint", "pin", "log-gap", "handshake"),
          hostile,
        ),
        id,
        s: hostile,
        outcome: fc.constantFrom("refuse", "ask-declined", "forward-noted", "forward"),
      }),
      fc.record({ kind: fc.constant("exit"), signal: fc.option(hostile) }),
      fc.record({ kind: fc.constant("garbage"), text: hostile }),
    ),
    { maxLength: 12 },
  ),
});

type Session = typeof sessionArb extends fc.Arbitrary<infer S> ? S : never;

function logText(s: Session): string {
  let seq = 0;
  const lines: string[] = [];
  const rec = (r: Record<string, unknown>) =>
    lines.push(
      JSON.stringify({ type: r["type"], seq: ++seq, t: new Date(T0 + seq).toISOString(), sid: s.sid, ...r }),
    );
  const frame = (dir: string, value: unknown) => {
    const text = JSON.stringify(value);
    rec({ type: "frame", dir, size: text.length, eol: "\n", text });
  };
  const h = s.header;
  rec({
    type: "header",
    effectgate: "0.1.0",
    argv: [],
    server: h.server,
    name: h.name,
    cwd: h.cwd,
    pid: 1,
    platform: h.platform,
    level: h.level,
    from: "flag",
    policy: h.policy,
    lock: null,
  });
  for (const it of s.items) {
    switch (it.kind) {
      case "call":
        frame("c2s", {
          jsonrpc: "2.0",
          id: it.id,
          method: "tools/call",
          params: { name: it.tool, arguments: { a: it.args } },
        });
        frame("c2s", { jsonrpc: "2.0", id: it.id, method: it.method, params: { name: it.tool } });
        break;
      case "s2c-request":
        frame("s2c", { jsonrpc: "2.0", id: it.id, method: it.method, params: {} });
        break;
      case "notification":
        frame(it.dir, { jsonrpc: "2.0", method: it.method });
        break;
      case "result":
        frame(it.dir, {
          jsonrpc: "2.0",
          id: it.id,
          result: { content: [{ type: "text", text: it.text }], isError: it.text.length % 2 === 0 },
        });
        break;
      case "error":
        frame("s2c", { jsonrpc: "2.0", id: it.id, error: { code: it.code, message: it.message } });
        break;
      case "batch":
        frame(
          "c2s",
          it.ids.map((i) => ({ jsonrpc: "2.0", id: i, method: it.method })),
        );
        break;
      case "not-json":
        rec({ type: "frame", dir: it.dir, size: it.text.length, eol: "\n", text: it.text, nonJson: true });
        break;
      case "head": {
        const head = `{"jsonrpc":"2.0","id":${JSON.stringify(it.id)},"method":${JSON.stringify(it.method)},"params":{"name":${JSON.stringify(it.text)}`;
        rec({
          type: "frame",
          dir: it.dir,
          size: 1 << 25,
          eol: "\n",
          text: head,
          truncated: true,
          sha256: "0".repeat(64),
        });
        break;
      }
      case "bytes":
        rec({
          type: "frame",
          dir: "s2c",
          size: it.bytes.length,
          eol: "\n",
          base64: Buffer.from(it.bytes).toString("base64"),
        });
        break;
      case "stderr":
        rec({ type: "stderr", text: it.text });
        break;
      case "event":
        rec({
          type: "event",
          ev: it.ev,
          data: {
            id: it.id,
            method: it.s,
            tool: it.s,
            verdict: it.s,
            outcome: it.outcome,
            rule: it.s,
            reason: it.s,
            unjudgeable: it.s,
            tainted: true,
            calls: [{ method: it.s, id: it.id, text: it.s }],
            ids: [it.id],
            message: it.s,
            by: it.s,
            why: it.s,
            kind: it.s,
            severity: it.s,
            error: it.s,
            lost: it.s,
            protocolVersion: it.s,
            clientInfo: { name: it.s, version: it.s },
            serverInfo: { name: it.s, version: it.s },
            [it.s]: it.s,
          },
        });
        break;
      case "exit":
        rec({ type: "exit", code: null, signal: it.signal, exitCode: 1, counts: {} });
        break;
      case "garbage":
        lines.push(it.text.replace(/\n/g, " "));
        break;
    }
  }
  return `${lines.join("\n")}\n`;
}

describe("replay of hostile logs", () => {
  it("prints no raw control, bidi, separator or invisible character from any field", () => {
    fc.assert(
      fc.property(fc.array(sessionArb, { minLength: 1, maxLength: 2 }), hostile, (sessions, file) => {
        const entries = parseLogText(sessions.map(logText).join(""));
        const transcript = buildTranscript(entries);
        const lines = formatFile(file, transcript, [{ file, why: file }]);
        for (const line of lines) expect(line).not.toMatch(RAW);
        for (const rec of jsonRecords(file, transcript, [file], [{ file, why: file }]))
          expect(terminalSafeJson(rec)).not.toMatch(RAW);
      }),
      { numRuns: 400 },
    );
  });

  it("shows a hostile id escaped, not raw, in each place an id is printed", () => {
    const evil = "a\u009b2J\u202ex\u2028y";
    const text = logText({
      sid: "s",
      header: { server: ["srv"], name: null, cwd: "/", platform: "linux", level: "enforce", policy: null },
      items: [
        // The server's own request, an answer no request waits for, and a client's call.
        { kind: "s2c-request", id: evil, method: "roots/list" },
        { kind: "result", dir: "s2c", id: evil, text: "t" },
        { kind: "call", id: evil, method: "m", tool: "t", args: "a" },
      ],
    });
    const lines = formatFile("f", buildTranscript(parseLogText(text)));
    for (const line of lines) expect(line).not.toMatch(RAW);
    const shown = lines.filter((l) => l.includes('id="a\\u009b2J\\u202ex\\u2028y"'));
    expect(shown).toHaveLength(4);
  });
});
