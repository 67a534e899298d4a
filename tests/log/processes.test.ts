import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parseLogFileName } from "../../src/log/naming.js";
import { logFiles, readRecords, useTempHome } from "../helpers/log.js";

useTempHome();

// Real processes, same folder, same frozen millisecond: O_EXCL and random sids must keep every
// run in its own file. Uses tsc's built writer in build/ (npm run build).
const writerUrl = pathToFileURL(join(import.meta.dirname, "..", "..", "build", "log", "writer.js")).href;

function run(dir: string, count: number): Promise<number> {
  const script = `
    const { openSessionLog } = await import(${JSON.stringify(writerUrl)});
    const frozen = new Date(Date.UTC(2026, 10, 30, 12, 0, 0, 0));
    for (let i = 0; i < ${count}; i++) {
      const log = openSessionLog({ dir: ${JSON.stringify(dir)}, name: "race", now: () => frozen });
      log.event("hello", { pid: process.pid, i });
      log.close();
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? -1));
  });
}

describe("concurrent runs", () => {
  it("never share a file or a sid across processes started in the same millisecond", async () => {
    const dir = join(process.env["EFFECTGATE_HOME"] as string, "sessions");
    const codes = await Promise.all([run(dir, 60), run(dir, 60), run(dir, 60), run(dir, 60)]);
    expect(codes).toEqual([0, 0, 0, 0]);
    const files = logFiles(dir);
    expect(files).toHaveLength(240);
    const sids = new Set(files.map((f) => parseLogFileName(f)?.sid));
    expect(sids.size).toBe(240);
    for (const f of files) {
      const recs = readRecords(join(dir, f));
      expect(recs).toHaveLength(1);
      expect(recs[0]?.sid).toBe(parseLogFileName(f)?.sid);
    }
  });
});
