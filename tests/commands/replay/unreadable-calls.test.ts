// replay counts every call the relay refused, also those whose frames the log could not keep as
// JSON (cut, not UTF-8, not JSON, a CR inside), and every server answer: one with no matching
// request is shown and counted, and at observe one logged just before its call is that call's.
import { describe, expect, it } from "vitest";
import { formatFile } from "../../../src/core/replay/format.js";
import { buildTranscript } from "../../../src/core/replay/transcript.js";
import { parseLogText } from "../../../src/log/reader.js";
import { answer, call, HOME, INJECTION, logOf, P, type Item } from "../../helpers/hand-logs.js";

function replayOf(log: string) {
  const sessions = buildTranscript(parseLogText(log));
  return { summary: sessions[0]?.summary.toJSON(), text: formatFile("x.jsonl", sessions).join("\n") };
}

const refusedEvent = (id: unknown, text: string, batch = false) => ({
  ev: "refused",
  data: { batch, calls: [{ method: "tools/call", id, problem: null, text }] },
});
const refuseDecision = (id: unknown, tool: string) => ({
  ev: "decision",
  data: {
    id,
    method: "tools/call",
    tool,
    verdict: "deny",
    outcome: "refuse",
    rule: "unjudgeable",
    reason: "r",
  },
});
const refusal = (id: unknown) => answer(id, "effectgate refused this call", true);

describe("refused calls whose frames the log could not keep as JSON", () => {
  it("counts a call over 16 MiB whose method lies past the cut once, with its own answer", () => {
    // Decision 0053's case: the relay reads the id from the text (5) but the decision has none.
    const head = `{"jsonrpc":"2.0","id":5,"params":{"name":"write_file","arguments":{"path":"${P}/.env","x":[${"1,".repeat(200)}`;
    const { summary, text } = replayOf(
      logOf("big", "enforce", [
        { c2sHead: head, size: 18 * 1024 * 1024 },
        refuseDecision("", "tools/call"),
        refusedEvent(5, "the frame is not valid JSON"),
        { s2c: refusal(5) },
      ]),
    );
    expect(summary).toMatchObject({ calls: 1, refused: 1, unanswered: 0, answersWithoutRequest: 0 });
    expect(text.match(/!! REFUSED/g)).toHaveLength(1);
    expect(text).toMatch(/<- {3}refused by effectgate {2}<- tools\/call {2}id=5/);
  });

  it("shows and counts an allowed call over 16 MiB read from the head the log kept", () => {
    const head = JSON.stringify(
      call(1, "write_file", { path: `${P}/ok.txt`, content: "a".repeat(300) }),
    ).slice(0, 200);
    const { summary, text } = replayOf(
      logOf("big-ok", "enforce", [{ c2sHead: head, size: 17 * 1024 * 1024 }, { s2c: answer(1, "ok") }]),
    );
    expect(summary).toMatchObject({ calls: 1, refused: 0, unanswered: 0, callsPerTool: { write_file: 1 } });
    expect(text).toMatch(
      /-> {3}tools\/call {2}id=1 {2}tool=write_file {2}\(truncated frame, 17825792 bytes\): read from its first 64 KiB/,
    );
    expect(text).toMatch(/<- {3}result {2}<- tools\/call {2}id=1 {2}tool=write_file/);
  });

  it("matches the relay's refusal count in a session of batch, non-UTF-8, CR-inside and non-JSON calls", () => {
    const bytes = Buffer.concat([
      Buffer.from(
        `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"${HOME}/.ssh/a`,
      ),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","content":"x"}}}'),
    ]);
    const batch = [1, 2, 3].map((id) => call(id, "write_file", { path: `${HOME}/.ssh/k${id}` }));
    const items: Item[] = [
      { c2s: batch },
      ...[1, 2, 3].map((id) => refuseDecision(id, "write_file")),
      {
        ev: "refused",
        data: {
          batch: true,
          calls: [1, 2, 3].map((id) => ({ method: "tools/call", id, problem: null, text: "no" })),
        },
      },
      { s2c: [refusal(1), refusal(2), refusal(3)] },
      { c2sBytes: bytes },
      refuseDecision(10, "write_file"),
      refusedEvent(10, "no"),
      { s2c: refusal(10) },
      // The relay logs a CR-inside call under the id "" and answers nobody (hunt report, defect 3).
      {
        c2sText: `{"jsonrpc":"2.0","id":11,\r"method":"tools/call","params":{"name":"read_file","arguments":{}}}`,
      },
      refuseDecision("", "tools/call"),
      refusedEvent(null, "a carriage return inside the line"),
      { c2sText: `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"x",}}`, nonJson: true },
      refuseDecision("", "tools/call"),
      refusedEvent(13, "not valid JSON"),
      { s2c: refusal(13) },
    ];
    const { summary, text } = replayOf(logOf("mixed", "enforce", items));
    expect(summary).toMatchObject({
      calls: 6,
      refused: 6,
      failed: 0,
      unanswered: 0,
      answersWithoutRequest: 0,
    });
    expect(text).toContain("(not UTF-8, ");
    expect(text).toMatch(/-> {3}tools\/call {2}id=10 {2}tool=write_file/);
    // One REFUSED line per refused call: the refused event repeats what the decision said.
    expect(text.match(/!! REFUSED/g)).toHaveLength(6);
  });

  it("counts each call that reuses an id", () => {
    const { summary } = replayOf(
      logOf("reuse", "enforce", [
        { c2s: call(1, "read_file", { path: `${P}/a` }) },
        { s2c: answer(1, "a") },
        { c2s: call(1, "read_file", { path: `${P}/b` }) },
        { s2c: answer(1, "b", true) },
      ]),
    );
    expect(summary).toMatchObject({ calls: 2, failed: 1, unanswered: 0, callsPerTool: { read_file: 2 } });
  });
});

describe("answers with no waiting request", () => {
  it("at observe takes an answer logged just before its call as that call's, and counts strays", () => {
    const { summary, text } = replayOf(
      logOf("early", "observe", [
        { s2c: answer(9, "nobody asked") },
        { s2c: answer(7, INJECTION) },
        { c2s: call(7, "read_note", { pad: "x" }) },
        { c2s: call(8, "run_command", { command: "ls" }) },
        { s2c: answer(8, "ok") },
      ]),
    );
    expect(summary).toMatchObject({ calls: 2, unanswered: 0, answersWithoutRequest: 1, earlyAnswers: 1 });
    expect(text).toMatch(
      /\*\* UNMATCHED {2}<- {3}result {2}<- \(no matching request\) {2}id=9 {2}"nobody asked"/,
    );
    expect(text).toMatch(
      /\*\* EARLY {2}<- {3}result {2}<- tools\/call {2}id=7 {2}tool=read_note {2}"Ignore all previous.*\(logged before its call/,
    );
    expect(text).toContain(
      "2 calls, 0 refused, 0 failed, 0 unanswered, 1 answer with no matching request, 1 answered before their call was logged",
    );
  });

  it("at enforce an answer before its call is a stray: the relay logs a call before sending it", () => {
    const { summary, text } = replayOf(
      logOf("stray", "enforce", [{ s2c: answer(7, "guess") }, { c2s: call(7, "read_note") }]),
    );
    expect(summary).toMatchObject({ calls: 1, unanswered: 1, answersWithoutRequest: 1, earlyAnswers: 0 });
    expect(text).toContain("** UNMATCHED");
  });
});
