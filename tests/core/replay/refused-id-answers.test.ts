// Replay tells effectgate's own refusal apart from a server answer that reuses the refused
// call's id (hunt report tools.md D4): only the frame the relay wrote right after logging the
// refusal is "refused by effectgate"; a server answer to a call it never received is marked
// `!! UNASKED` and shows what it said.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LogEntry, RecordLike } from "../../../src/core/replay/entries.js";
import { formatItem } from "../../../src/core/replay/format.js";
import type { ReplaySession } from "../../../src/core/replay/replay-item.js";
import { buildTranscript } from "../../../src/core/replay/transcript.js";
import { CLI, RawClient, sandbox } from "../../e2e/harness.js";

const GUESSING_SERVER = join(import.meta.dirname, "..", "..", "fixtures", "servers", "guessing-server.mjs");

let seq = 0;
function rec(r: Record<string, unknown>): LogEntry {
  seq += 1;
  return {
    line: seq,
    record: {
      seq,
      t: "2026-01-01T00:00:00.000Z", // one instant: these tests are about who spoke, not when
      sid: "s",
      ...r,
    } as unknown as RecordLike,
  };
}
const frame = (dir: "c2s" | "s2c", msg: unknown): LogEntry =>
  rec({ type: "frame", dir, size: 1, text: JSON.stringify(msg) });
const event = (ev: string, data: Record<string, unknown>): LogEntry => rec({ type: "event", ev, data });
const call = (id: number, name: string) =>
  frame("c2s", { jsonrpc: "2.0", id, method: "tools/call", params: { name } });
const text = (id: number, t: string, isError?: true) =>
  frame("s2c", {
    jsonrpc: "2.0",
    id,
    result: { content: [{ type: "text", text: t }], ...(isError ? { isError } : {}) },
  });
const refusal = (id: number) => [
  event("decision", {
    id,
    method: "tools/call",
    tool: "write_file",
    verdict: "deny",
    outcome: "refuse",
    rule: "paths.deny",
    reason: "no",
  }),
  event("refused", {
    batch: false,
    calls: [{ method: "tools/call", id, problem: null, text: "effectgate refused this call" }],
  }),
];
const bodies = (s: ReplaySession | undefined): string[] =>
  (s?.items ?? []).map((i) => formatItem(i).replace(/^ {2}\S+ {2}/, ""));

beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});

describe("answers under a refused call's id", () => {
  it("the frame after the refusal is effectgate's; a later one with that id is the server's, marked", () => {
    const [s] = buildTranscript([
      call(3, "write_file"),
      ...refusal(3),
      text(3, "effectgate refused this call", true),
      text(3, "wrote ~/.bashrc (fake answer for 3)"),
    ]);
    expect(bodies(s).slice(2)).toEqual([
      '<-   refused by effectgate  <- tools/call  id=3  tool=write_file  0ms  "effectgate refused this call"',
      '!! UNASKED  <-   result  <- tools/call  id=3  tool=write_file  "wrote ~/.bashrc (fake answer for 3)"  (from the server, which never received this call: effectgate refused it)',
    ]);
    expect(s?.items[3]).toMatchObject({ kind: "response", marker: "UNASKED", outcome: "result", dir: "s2c" });
    expect(s?.summary.toJSON()).toMatchObject({ calls: 1, refused: 1, failed: 0 });
  });

  it("a server answer logged between the call and its refusal is marked too, and the refusal still matches", () => {
    const [s] = buildTranscript([
      call(3, "write_file"),
      text(3, "wrote ~/.bashrc (early fake)"),
      ...refusal(3),
      text(3, "effectgate refused this call", true),
    ]);
    const items = s?.items ?? [];
    expect(items[1]).toMatchObject({
      marker: "UNASKED",
      outcome: "result",
      detail: "wrote ~/.bashrc (early fake)",
    });
    expect(items[1]).not.toHaveProperty("latencyMs");
    expect(items[3]).toMatchObject({ outcome: "refusal", answers: "tools/call", tool: "write_file" });
    expect(s?.summary.toJSON()).toMatchObject({ calls: 1, refused: 1, failed: 0, unanswered: 0 });
  });

  it("a new call that reuses a refused id is answered normally, not marked", () => {
    const [s] = buildTranscript([
      call(3, "write_file"),
      ...refusal(3),
      text(3, "effectgate refused this call", true),
      call(3, "read_text_file"),
      text(3, "contents"),
    ]);
    const last = s?.items.at(-1);
    expect(last).toMatchObject({ outcome: "result", answers: "tools/call", tool: "read_text_file" });
    expect(last).not.toHaveProperty("marker");
  });

  it("black-box: a guessing server's forged success for a refused call is shown as the server's", async () => {
    const { env, home } = sandbox();
    const logs = join(home, "logs");
    const client = new RawClient(
      ["--level", "enforce", "--log-dir", logs, "--", process.execPath, GUESSING_SERVER],
      { ...env, FAKE_IDS: "3" },
    );
    await client.initialize();
    const refused = await client.call(3, "write_file", { path: join(home, ".bashrc"), content: "x" });
    await client.call(4, "send_fakes", {});
    await client.close();
    expect((refused.result as { isError?: boolean }).isError).toBe(true);
    expect(readdirSync(logs)).toHaveLength(1);
    const r = spawnSync(process.execPath, [CLI, "replay", logs], { env, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => / id=3 /.test(`${l} `));
    expect(lines.filter((l) => l.includes("<-   refused by effectgate  <- tools/call  id=3"))).toHaveLength(
      1,
    );
    const forged = lines.filter((l) => l.includes("!! UNASKED"));
    expect(forged).toHaveLength(1);
    expect(forged[0]).toContain('"wrote ~/.bashrc (fake answer for 3)"');
    expect(forged[0]).toContain("never received this call");
    expect(r.stdout).toContain("2 calls, 1 refused, 0 failed, 0 unanswered");
  });
});

// A log whose header says `marksOwn` tells effectgate's frames by their `by` field, not by
// their place after a refusal (decision 0112). Older logs keep the order-based reading above.
describe("a log that marks effectgate's own frames", () => {
  const header = (marksOwn: boolean): LogEntry =>
    rec({
      type: "header",
      server: ["srv"],
      name: null,
      cwd: "/",
      platform: "linux",
      level: "enforce",
      from: "flag",
      policy: null,
      ...(marksOwn ? { marksOwn: true } : {}),
    });
  const own = (e: LogEntry): LogEntry =>
    "record" in e ? { ...e, record: { ...e.record, by: "effectgate" } as RecordLike } : e;
  const failure = (id: number) =>
    frame("s2c", {
      jsonrpc: "2.0",
      id,
      error: { code: -32603, message: "effectgate could not handle this" },
    });

  it("an error answer effectgate wrote is its own, though no refusal record names the call", () => {
    const frames = (marks: boolean) => [
      header(marks),
      call(5, "write_file"),
      event("handling-error", { ids: [5], error: "boom" }),
      marks ? own(failure(5)) : failure(5),
    ];
    const [marked] = buildTranscript(frames(true));
    expect(marked?.items.at(-1)).toMatchObject({ kind: "response", outcome: "refusal", refused: true });
    // Without the mark the same answer reads as the server's error, as it did before.
    const [old] = buildTranscript(frames(false));
    expect(old?.items.at(-1)).toMatchObject({ kind: "response", outcome: "error" });
    expect(old?.items.at(-1)).not.toHaveProperty("refused");
  });

  it("an unmarked answer right after a refusal is the server's; the marked one is effectgate's", () => {
    const [s] = buildTranscript([
      header(true),
      call(3, "write_file"),
      ...refusal(3),
      text(3, "wrote ~/.bashrc (fake answer for 3)"),
      own(text(3, "effectgate refused this call", true)),
    ]);
    const items = s?.items ?? [];
    expect(items.at(-2)).toMatchObject({ marker: "UNASKED", outcome: "result", dir: "s2c" });
    expect(items.at(-1)).toMatchObject({ outcome: "refusal", refused: true, tool: "write_file" });
    expect(s?.summary.toJSON()).toMatchObject({ calls: 1, refused: 1, failed: 0, unanswered: 0 });
  });
});
