// Black-box: the BUILT relay whose server cannot start still answers the client's first request
// with the cause (decision 0086). The log is open by then, so that answer is in it, marked as
// effectgate's own (`by`, decision 0112), before the log's last record.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, testEnv } from "./helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");
const INIT = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
})}\n`;

function run(level: string, logDir: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [MAIN, "--level", level, "--log-dir", logDir, "--", "effectgate-missing-server-xyz"],
      { env: testEnv(), stdio: ["pipe", "pipe", "ignore"] },
    );
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes("\n")) child.stdin.end();
    });
    child.stdin.write(INIT);
    child.on("exit", (code) => resolve({ code, stdout }));
  });
}

describe("a relay whose server cannot start", () => {
  for (const level of ["enforce", "observe"]) {
    it(`${level}: logs its answer to the first request as effectgate's, before the exit record`, async () => {
      const dir = tempDir("eg-nostart-");
      const r = await run(level, dir);
      expect(r.code).toBe(127);
      const answer = r.stdout.split("\n")[0] as string;
      expect(JSON.parse(answer)).toMatchObject({ id: 0, error: { code: expect.any(Number) } });
      const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
      expect(files).toHaveLength(1);
      const lines = readFileSync(join(dir, files[0] as string), "utf8")
        .trimEnd()
        .split("\n");
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(records[0]).toMatchObject({ type: "header", marksOwn: true });
      const at = records.findIndex((x) => x["type"] === "frame" && x["dir"] === "s2c");
      expect(records[at]).toMatchObject({ by: "effectgate", json: JSON.parse(answer) });
      // The logged bytes are the bytes the client got.
      expect(lines[at]?.slice(lines[at].indexOf(',"json":') + 8, -1)).toBe(answer);
      const kinds = records.map((x) => (x["type"] === "event" ? x["ev"] : x["type"]));
      expect(kinds.slice(at - 1)).toEqual(["cannot-start", "frame", "exit"]);
    });
  }
});
