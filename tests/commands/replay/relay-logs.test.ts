import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildTranscript } from "../../../src/core/replay/transcript.js";
import { formatFile } from "../../../src/core/replay/format.js";
import { parseLogText } from "../../../src/log/reader.js";
import { call, cli, fixture, handshake, sandbox, session } from "../../helpers/pins.js";

// Replay of logs the relay itself wrote, not hand-made fixtures: what the writer logs is what
// replay must read.

describe("replay of a real relay log", () => {
  it("shows a pin refusal as refused by effectgate, not as a tool error", async () => {
    const box = sandbox();
    const server = ["node", fixture("rugpull.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
    // read_file's description changes after approval: the call is refused by the pin gate.
    const { answers } = await session(
      box,
      ["--level", "enforce", "--lock", "effectgate.lock", "--", ...server],
      [...handshake, call(3, "read_file"), call(4, "list_dir")],
    );
    expect(answers.get(3)?.result?.isError).toBe(true);

    const sessions = join(box.home, ".effectgate", "sessions");
    expect(readdirSync(sessions)).toHaveLength(1);
    const out = cli(box, ["replay", sessions]).stdout;
    expect(out).toMatch(/!! REFUSED {2}tools\/call {2}id=3 {2}.*changed since it was approved/);
    expect(out).toMatch(/<- {3}refused by effectgate {2}<- tools\/call {2}id=3 {2}tool=read_file/);
    expect(out).not.toContain("tool error");
    expect(out).toContain("2 calls, 1 refused, 0 failed, 0 unanswered");
  });

  it("marks the frames effectgate wrote itself, and only those (decision 0112)", async () => {
    const box = sandbox();
    const server = ["node", fixture("rugpull.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
    await session(
      box,
      ["--level", "enforce", "--lock", "effectgate.lock", "--", ...server],
      [...handshake, call(3, "read_file"), call(4, "list_dir")],
    );
    const sessions = join(box.home, ".effectgate", "sessions");
    const [file] = readdirSync(sessions);
    const records = parseLogText(readFileSync(join(sessions, file as string), "utf8")).flatMap((e) =>
      "record" in e ? [e.record] : [],
    );
    expect(records[0]).toMatchObject({ type: "header", marksOwn: true });
    const frames = records.flatMap((r) => (r.type === "frame" ? [r] : []));
    const ids = (by: boolean) =>
      frames
        .filter((f) => f.dir === "s2c" && (f.by === "effectgate") === by)
        .map((f) => (JSON.parse(f.text ?? "null") as { id?: unknown }).id);
    // The pin refusal of call 3 is effectgate's; the server answered initialize and call 4.
    expect(ids(true)).toEqual([3]);
    expect(ids(false)).toEqual(expect.arrayContaining([4]));
    expect(ids(false)).not.toContain(3);
    expect(frames.filter((f) => f.dir === "c2s" && f.by !== undefined)).toEqual([]);
  });

  it("reads every call of a batch refusal, and one without a usable id", () => {
    const rec = (seq: number, rest: object) =>
      JSON.stringify({ seq, t: `2026-01-01T00:00:0${seq}.000Z`, sid: "0123456789abcdef", ...rest });
    const frame = (seq: number, json: unknown) =>
      rec(seq, { type: "frame", dir: "c2s", size: 1, eol: "\n", json });
    const callMsg = (id: number, name: string) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name },
    });
    const log = [
      frame(1, [callMsg(5, "a"), callMsg(6, "b")]),
      rec(2, {
        type: "event",
        ev: "refused",
        data: {
          batch: true,
          calls: [
            { method: "tools/call", id: 5, problem: null, text: "pin changed" },
            { method: "tools/call", id: 6, problem: null, text: "Not sent: another call was refused" },
            { method: "tools/call", id: null, problem: "no id", text: "no usable id" },
          ],
        },
      }),
    ].join("\n");
    const sessions = buildTranscript(parseLogText(log));
    // The relay refused three calls: the one with no usable id is a call of the session too.
    expect(sessions[0]?.summary.toJSON()).toMatchObject({ calls: 3, refused: 3, unanswered: 0 });
    const text = formatFile("x.jsonl", sessions).join("\n");
    expect(text).toContain("!! REFUSED  tools/call  id=5  pin changed");
    expect(text).toContain("!! REFUSED  tools/call  id=6  Not sent");
    expect(text).toContain("!! REFUSED  tools/call  no usable id");
  });
});
