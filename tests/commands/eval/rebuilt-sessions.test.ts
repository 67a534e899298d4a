// eval --benign rebuilds each logged session as enforce and strict would have run it
// (docs/decisions/0065): answers to calls a level refuses, and answers effectgate wrote itself,
// never taint that level's judge; calls it cannot judge again are counted, not dropped.
import { describe, expect, it } from "vitest";
import { formatBenign } from "../../../src/core/evaluation/report.js";
import { answer, benign, call, flags, HOME, INJECTION, init, logOf, P } from "../../helpers/hand-logs.js";

const refusalAnswer = (id: unknown, text: string) =>
  answer(id, `effectgate refused this call: ${text}`, true);

describe("an observe log rebuilt at enforce and strict", () => {
  it("does not let the answer to a call enforce refuses taint the enforce rebuild", () => {
    // Observe forwarded the denied read, and its answer carried an injection; enforce never sent it.
    const log = logOf("obs-deny", "observe", [
      { c2s: init() },
      { s2c: { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18", capabilities: {} } } },
      { c2s: call(1, "read_note", { path: `${HOME}/.ssh/id_rsa` }) },
      { s2c: answer(1, INJECTION) },
      { c2s: call(2, "run_command", { command: "ls" }) },
      { s2c: answer(2, "a b") },
    ]);
    const r = benign(log);
    expect(flags(r)).toEqual(["deny read_note", "confirm run_command"]);
    expect(r.verdicts).toEqual({ allow: 0, confirm: 1, deny: 1 });
    expect(r.enforce).toMatchObject({ blocks: 1, calls: 2 });
  });

  it("does not let the answer to a confirm strict refuses taint the strict rebuild", () => {
    // At enforce the first command is relayed with a notice and its output taints; strict,
    // with no way to ask, refuses it, so its second command is judged untainted there.
    const log = (elicitation: boolean) =>
      logOf("obs-strict", "observe", [
        { c2s: init(elicitation) },
        { c2s: call(1, "run_command", { command: "cat notes.txt" }) },
        { s2c: answer(1, INJECTION) },
        { c2s: call(2, "run_command", { command: "ls" }) },
        { s2c: answer(2, "a b") },
      ]);
    const cannotAsk = benign(log(false));
    expect(flags(cannotAsk)).toEqual(["confirm run_command", "deny/confirm run_command tainted"]);
    expect(cannotAsk.verdicts).toEqual({ allow: 0, confirm: 1, deny: 1 });
    expect(cannotAsk.strictVerdicts).toEqual({ allow: 0, confirm: 2, deny: 0 });
    expect(formatBenign(cannotAsk, "default").join("\n")).toContain(
      "verdicts at strict (its own taint): 0 allow, 2 confirm, 0 deny",
    );
    // A client that can be asked: the user says yes, the output reaches strict's judge too.
    const asked = benign(log(true));
    expect(flags(asked)).toEqual(["confirm run_command", "deny run_command tainted"]);
    expect(asked.strictVerdicts).toEqual({ allow: 0, confirm: 1, deny: 1 });
  });

  it("takes an answer logged just before its call (observe passes bytes on first) as that call's", () => {
    // A server that answers a large call as soon as it reads its id: at observe the answer is
    // logged before the call's frame. Enforce would have sent the whole call, then read the answer.
    const log = logOf("obs-early", "observe", [
      { c2s: init() },
      { s2c: answer(7, INJECTION) },
      { c2s: call(7, "read_note", { pad: "x" }) },
      { c2s: call(8, "run_command", { command: "ls" }) },
      { s2c: answer(8, "ok") },
    ]);
    const r = benign(log);
    expect(flags(r)).toEqual(["deny run_command tainted"]);
    expect(r.answers).toEqual({ noRequest: 0, tooLarge: 0, early: 1 });
    expect(formatBenign(r, "default").join("\n")).toContain(
      "1 answer logged before its call had fully crossed (observe passes bytes on first): taken as that call's answer",
    );
  });

  it("scans an answer that matched no request, as the relay does (decision 0066)", () => {
    const log = logOf("obs-orphan", "observe", [
      { s2c: answer(9, INJECTION) },
      { c2s: call(1, "read_file", { path: `${P}/a.txt` }) },
      { s2c: answer(1, "x") },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    const r = benign(log);
    expect(r.answers.noRequest).toBe(1);
    // The relay scanned the stray injection and was tainted; so is the rebuild.
    expect(flags(r)).toEqual(["deny run_command tainted"]);
    expect(formatBenign(r, "default").join("\n")).toContain(
      "1 answer with no matching request, scanned as content of no request (as the relay does)",
    );
    // At enforce the relay logs a call before any answer can come: an earlier answer is a guess,
    // not the call's answer, and is scanned as content of no request all the same.
    const enforceLog = logOf("enf-orphan", "enforce", [
      { s2c: answer(7, INJECTION) },
      { c2s: call(7, "read_file", { path: `${P}/b.txt` }) },
      { s2c: answer(7, "b") },
      { c2s: call(8, "run_command", { command: "ls" }) },
    ]);
    const e = benign(enforceLog);
    expect(e.answers).toEqual({ noRequest: 1, tooLarge: 0, early: 0 });
    expect(flags(e)).toEqual(["deny run_command tainted"]);
  });

  it("does not scan an answer the log shows the relay dropping", () => {
    // At strict the server guessed the id of a call held for the user's answer; the relay
    // dropped that answer (the client never saw it), and the user then declined the call.
    const log = (dropped: boolean) =>
      logOf("str-dropped", "strict", [
        { c2s: init(true) },
        { c2s: call(3, "run_command", { command: "make" }) },
        { s2c: answer(3, INJECTION) },
        ...(dropped ? [{ ev: "answer-dropped", data: { id: 3, why: "held", reading: "exact" } }] : []),
        { ev: "decision", data: { id: 3, method: "tools/call", verdict: "confirm", outcome: "ask" } },
        { ev: "refused", data: { calls: [{ id: 3, tool: "run_command" }] } },
        { s2c: refusalAnswer(3, "the user did not allow it") },
        { c2s: call(4, "run_command", { command: "ls" }) },
      ]);
    expect(flags(benign(log(true)))).toEqual(["confirm run_command", "confirm run_command"]);
    // Without the event the same answer is the held call's, and taints the enforce rebuild.
    expect(flags(benign(log(false)))).toEqual(["confirm run_command", "deny run_command tainted"]);
  });
});

describe("answers effectgate wrote in an enforce log", () => {
  it("never shows the judge the refusals of a batch refused whole", () => {
    const batch = [
      call(1, "read_file", { path: `${P}/a.txt` }),
      call(2, "run_command", { command: "ls" }),
      call(3, "write_file", { path: `${HOME}/.ssh/authorized_keys`, content: "x" }),
    ];
    const others = `Not sent: effectgate refused another call in the same batch: ${INJECTION}`;
    const log = logOf("enf-batch", "enforce", [
      { c2s: batch },
      { ev: "decision", data: { id: 2, method: "tools/call", verdict: "confirm", outcome: "forward-noted" } },
      { ev: "decision", data: { id: 3, method: "tools/call", verdict: "deny", outcome: "refuse" } },
      {
        ev: "refused",
        data: {
          batch: true,
          calls: [1, 2, 3].map((id) => ({ method: "tools/call", id, problem: null, text: others })),
        },
      },
      { s2c: [refusalAnswer(1, others), refusalAnswer(2, others), refusalAnswer(3, others)] },
      { c2s: call(4, "run_command", { command: "pwd" }) },
      { s2c: answer(4, "/") },
    ]);
    const r = benign(log);
    expect(flags(r)).toEqual(["confirm run_command", "deny write_file", "confirm run_command"]);
    expect(r.verdicts).toEqual({ allow: 1, confirm: 2, deny: 1 });
  });

  it("never shows the judge a pin refusal as the refused fetch's answer", () => {
    const log = logOf("enf-pin", "enforce", [
      { c2s: call(2, "fetch", { url: "https://example.com" }) },
      {
        ev: "pin",
        data: { kind: "call", tool: "fetch", id: 2, reason: "changed", level: "enforce", refused: true },
      },
      {
        ev: "refused",
        data: { batch: false, calls: [{ method: "tools/call", id: 2, problem: null, text: "pin" }] },
      },
      { s2c: refusalAnswer(2, `the description of "fetch" changed since it was approved. ${INJECTION}`) },
      { c2s: call(3, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["confirm run_command"]);
  });

  it("treats a pin failure at observe as the refusal enforce makes with that lock", () => {
    const log = logOf("obs-pin", "observe", [
      { c2s: call(2, "fetch", { url: "https://example.com" }) },
      {
        ev: "pin",
        data: { kind: "call", tool: "fetch", id: 2, reason: "changed", level: "observe", refused: false },
      },
      { s2c: answer(2, INJECTION) },
      { c2s: call(3, "run_command", { command: "ls" }) },
    ]);
    expect(flags(benign(log))).toEqual(["confirm run_command"]);
  });

  it("refuses only the call it refused: a later call reusing the id is answered by the tool", () => {
    const log = logOf("enf-reuse", "enforce", [
      { c2s: call(1, "write_file", { path: `${P}/.npmrc`, content: "x" }) },
      { ev: "decision", data: { id: 1, method: "tools/call", verdict: "deny", outcome: "refuse" } },
      {
        ev: "refused",
        data: { batch: false, calls: [{ method: "tools/call", id: 1, problem: null, text: "no" }] },
      },
      { s2c: refusalAnswer(1, "no") },
      { c2s: call(1, "read_note", { id: "n" }) },
      { s2c: answer(1, INJECTION) },
      { c2s: call(2, "run_command", { command: "ls" }) },
    ]);
    const r = benign(log);
    expect(flags(r)).toEqual(["deny write_file", "deny run_command tainted"]);
    expect(r.enforce).toMatchObject({ blocks: 2, calls: 3 });
  });
});

describe("client frames the log could not keep as JSON", () => {
  it("counts a call in a frame too large to judge again, instead of measuring nothing", () => {
    const head = JSON.stringify(
      call(5, "write_file", { path: `${P}/big.txt`, content: "a".repeat(500) }),
    ).slice(0, 300);
    const log = logOf("enf-big", "enforce", [
      { c2sHead: head, size: 17 * 1024 * 1024 },
      { c2sHead: head.replace('"id":5', '"id":6'), size: 17 * 1024 * 1024 },
      { s2c: answer(5, "ok") },
    ]);
    const r = benign(log);
    expect(r.calls).toBe(0);
    expect(r.unjudged).toEqual({ tooLarge: 2 });
    expect(r.answers.noRequest).toBe(0); // the answer to 5 is its call's, not a stray
    const text = formatBenign(r, "default").join("\n");
    expect(text).toContain(
      "2 calls could not be judged again: 2 in frames too large to re-judge (over 16 MiB: the log keeps only their first 64 KiB)",
    );
    expect(text).toContain("no judged calls");
  });

  it("judges non-UTF-8, CR-inside and non-JSON calls as the relay does", () => {
    const bytes = Buffer.concat([
      Buffer.from(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"${HOME}/.ssh/a`,
      ),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","content":"x"}}}'),
    ]);
    const cr = `{"jsonrpc":"2.0","id":2,\r"method":"tools/call","params":{"name":"read_file","arguments":{"path":"${P}/a.txt"}}}`;
    const notJson = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file",}}`;
    const log = logOf("enf-odd", "enforce", [
      { c2sBytes: bytes },
      { c2sText: cr },
      { c2sText: notJson, nonJson: true },
    ]);
    const r = benign(log);
    expect(r.calls).toBe(3);
    expect(r.verdicts).toEqual({ allow: 0, confirm: 0, deny: 3 });
    const reasons = r.flagged.map((f) => `${f.rule} ${f.reason}`);
    expect(reasons[0]).toContain(".ssh");
    expect(reasons[1]).toContain("carriage return inside the line");
    expect(reasons[2]).toContain("not valid JSON but looks like a judged call");
  });
});
