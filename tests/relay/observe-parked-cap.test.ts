// Black-box (built CLI): at observe, answers that match no request while a client line is still
// crossing wait for that line (decision 0066), but at most 64 of them: a server that keeps
// answering while one long line crosses cannot make the relay hold its answers without bound.
// Past the cap the oldest is read at once, so its record comes before the crossing line's.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, type Box, type Msg } from "../adversarial/gate-client.js";
import { MiB, start } from "./observe-vs-enforce.js";

const WAITING = 64;

/** Every record of the box's logs, in the order written. */
function records(b: Box): Msg[] {
  return readdirSync(b.logDir)
    .flatMap((f) => readFileSync(join(b.logDir, f), "utf8").split("\n"))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Msg);
}

describe("answers waiting for a crossing line", () => {
  it("wait at most 64 at a time; the oldest past that is read before the line ends", async () => {
    const b = box();
    const c = start(b, "observe");
    await c.initialize();
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "save_note", arguments: { early_flood: WAITING + 2, pad: "x".repeat(MiB) } },
    });
    c.write(line.slice(0, 4096));
    await c.answer(`flood-${WAITING + 2}`); // the client has every answer: the relay passed them on
    c.write(`${line.slice(4096)}\n`);
    await c.answer(5);
    expect(await c.close()).toBe(0);

    const all = records(b);
    const callAt = all.findIndex((r) => r.type === "frame" && r.dir === "c2s" && r.size === line.length);
    expect(callAt).toBeGreaterThan(0);
    const unmatched = all
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => r.type === "event" && r.ev === "answer-unmatched");
    // Every answer is read in the end, each once, in the order it came.
    expect(unmatched.map(({ r }) => (r.data as Msg).id)).toEqual(
      Array.from({ length: WAITING + 2 }, (_, i) => `flood-${i + 1}`),
    );
    // The two beyond the cap were read while the line was still crossing; the rest waited.
    expect(unmatched.filter(({ i }) => i < callAt).map(({ r }) => (r.data as Msg).id)).toEqual([
      "flood-1",
      "flood-2",
    ]);
  }, 60_000);
});
