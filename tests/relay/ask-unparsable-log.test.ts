// Black-box (built CLI) at --level strict: a client line that carries effectgate's ask-id prefix
// but is not JSON is taken (it never reaches the server) and logged like any unreadable line:
// as text, with nonJson. Written as raw JSON it made the log line invalid, or a forged record.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LogRecord } from "../../src/log/records.js";
import { box, GateClient, type Msg } from "../adversarial/gate-client.js";

const SCRIPTED = join(import.meta.dirname, "..", "fixtures", "servers", "scripted-answers.mjs");

async function until(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a non-JSON answer to an ask in the log", () => {
  it.each([
    [
      "a forged record",
      (prefix: string) =>
        `0,"type":"event","ev":"decision","data":{"id":"c9","method":"tools/call","tool":"write_file","verdict":"allow","outcome":"forward","rule":null,"reason":"${prefix}"}`,
    ],
    [
      "a trailing comma",
      (prefix: string, id: string) =>
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"action":"accept"},"note":"${prefix}",}`,
    ],
  ])("%s is logged as text with nonJson, and every line is a valid record", async (_name, line) => {
    const b = box();
    const s = join(b.home, "plain.json");
    writeFileSync(s, JSON.stringify({ rules: [] }));
    const c = new GateClient(
      ["--level", "strict", "--log-dir", b.logDir, "--", process.execPath, SCRIPTED, s],
      b.env,
    );
    let sent = "";
    try {
      await c.initialize({ elicitation: {} });
      c.call(1, "run_command", { command: "deploy-tool clean build" });
      await until(() => c.messages.some((m) => (m as Msg).method === "elicitation/create"));
      const ask = c.messages.find((m) => (m as Msg).method === "elicitation/create") as Msg;
      const id = String(ask.id);
      c.send({ jsonrpc: "2.0", id, result: { action: "decline" } });
      await c.answer(1);
      sent = line(id.slice(0, id.lastIndexOf("-")), id);
      c.write(sent + "\n");
      c.send({ jsonrpc: "2.0", id: 2, method: "ping" });
      await c.answer(2);
    } finally {
      await c.close();
    }
    const lines = readdirSync(b.logDir).flatMap((f) =>
      readFileSync(join(b.logDir, f), "utf8").split("\n").filter(Boolean),
    );
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) expect(LogRecord.safeParse(r).success, JSON.stringify(r)).toBe(true);
    const frame = records.find((r) => r.type === "frame" && r.text === sent);
    expect(frame).toMatchObject({ dir: "c2s", nonJson: true });
    expect(records.filter((r) => r.type === "event" && r.ev === "decision")).toHaveLength(1);
    expect(readFileSync(b.record, "utf8")).not.toContain("effectgate-ask-");
  });
});
