// Black-box (built CLI, the lenient fixture server that records every byte it gets): at enforce
// and strict a line over the log's whole-frame limit is read cut, as at observe, and written on
// in the pieces it came in (docs/decisions/0144-a-held-big-line-is-read-cut.md). Judged by what
// reached the server, the disk and the client.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checksumToken } from "../helpers/secrets.js";
import {
  box,
  GateClient,
  isRefusal,
  LENIENT_SERVER,
  receivedWork,
  type Box,
  type Msg,
} from "../adversarial/gate-client.js";
import { wholeLogRecords } from "../faults/fault-checks.js";

const MiB = 1024 * 1024;
const sha = (b: string | Buffer): string => createHash("sha256").update(b).digest("hex");

function start(b: Box, level: "enforce" | "strict"): GateClient {
  return new GateClient(
    ["--level", level, "--log-dir", b.logDir, "--", process.execPath, LENIENT_SERVER],
    b.env,
  );
}

/** The `data` of every `ev` event in the box's logs. */
function events(b: Box, ev: string): Msg[] {
  return wholeLogRecords(b.logDir)
    .filter((r) => r["type"] === "event" && r["ev"] === ev)
    .map((r) => r["data"] as Msg);
}

const refusalText = (m: Msg): string =>
  ((m.result as { content?: Array<{ text?: string }> } | undefined)?.content?.[0]?.text ?? "") as string;

describe("a huge call at enforce and strict", () => {
  it("whose arguments were cut past judging is refused as too large to judge and never reaches the server", async () => {
    for (const level of ["enforce", "strict"] as const) {
      const b = box();
      const c = start(b, level);
      await c.initialize();
      // 9 Mi numbers: an array that deep is cut short once the text the judge reads is kept.
      const path = join(b.project, "rows.json");
      c.write(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"${path}","rows":[${"1,".repeat(9 * MiB)}1]}}}\n`,
      );
      const answer = await c.answer(1, 60_000);
      expect(isRefusal(answer), level).toBe(true);
      expect(refusalText(answer)).toContain("too large to judge");
      // The session goes on: the next call is judged and forwarded.
      c.call(2, "write_file", { path: join(b.project, "ok.txt"), content: "ok" });
      expect(isRefusal(await c.answer(2))).toBe(false);
      expect(await c.close()).toBe(0);
      expect(receivedWork(b.record).map((l) => (JSON.parse(l) as Msg).id)).toEqual([2]);
      expect(existsSync(path)).toBe(false);
      expect(events(b, "frame-cut")).toEqual([expect.objectContaining({ dir: "c2s", containers: 1 })]);
    }
  }, 180_000);

  it("to a denied path is denied by its path, and nothing is written", async () => {
    const b = box();
    const c = start(b, "enforce");
    await c.initialize();
    const target = join(b.home, ".ssh", "authorized_keys");
    c.call(1, "write_file", { content: "k".repeat(17 * MiB), path: target });
    const answer = await c.answer(1, 60_000);
    expect(isRefusal(answer)).toBe(true);
    expect(await c.close()).toBe(0);
    expect(receivedWork(b.record)).toEqual([]);
    expect(existsSync(target)).toBe(false);
    expect(events(b, "decision")[0]).toMatchObject({
      verdict: "deny",
      rule: expect.stringMatching(/^paths\.deny /),
    });
  }, 60_000);

  it("that is allowed reaches the server byte for byte, and its huge answer reaches the client whole", async () => {
    const b = box();
    const c = start(b, "enforce");
    await c.initialize();
    // Two-, three- and four-byte characters across chunk edges, and a CRLF terminator.
    const content = "é€😀a".repeat(2 * MiB);
    const target = join(b.project, "big.txt");
    const line = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "write_file", arguments: { path: target, content } } })}\r\n`;
    c.write(line);
    expect(isRefusal(await c.answer(1, 60_000))).toBe(false);
    // The file read back: an answer over the limit, cut for reading too, and sent on whole.
    c.call(2, "read_text_file", { path: target });
    const answer = await c.answer(2, 60_000);
    expect(await c.close()).toBe(0);
    const got = readFileSync(b.record);
    const sent = Buffer.from(line);
    const at = got.indexOf(sent.subarray(0, 40));
    expect(sha(got.subarray(at, at + sent.length))).toBe(sha(sent));
    expect(readFileSync(target, "utf8") === content).toBe(true);
    expect(((answer.result as { content: Array<{ text: string }> }).content[0]?.text ?? "") === content).toBe(
      true,
    );
    // Both lines were read cut: neither was joined whole on the relay's thread.
    expect(events(b, "frame-cut").map((e) => e.dir)).toEqual(["c2s", "s2c"]);
  }, 120_000);

  it("that sends a string the relay read only in part is refused: a secret may be past the cut", async () => {
    const b = box();
    const c = start(b, "enforce");
    await c.initialize();
    // text_prompt is free text the path judge skips; the call sends (an image URL), so its
    // arguments are read for secrets, and the token lies past the 8 Mi characters kept.
    c.call(1, "generate_hunyuan3d_model", {
      text_prompt: `${"a ".repeat(9 * MiB)}${checksumToken("ghp_")}`,
      input_image_url: "https://images.example/cat.png",
    });
    const answer = await c.answer(1, 60_000);
    expect(isRefusal(answer)).toBe(true);
    expect(refusalText(answer)).toContain("too large to judge");
    expect(await c.close()).toBe(0);
    expect(receivedWork(b.record)).toEqual([]);
  }, 60_000);
});
