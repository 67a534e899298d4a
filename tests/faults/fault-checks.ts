import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { LogRecord } from "../../src/log/records.js";
import { isGone, readPid } from "../adversarial/gate-client.js";

// The checks every fault test ends with: no orphan, no torn log record.

/** Every line of every file under `dir` parses as JSON and matches the log schema; returns the parsed records in file order. */
export function wholeLogRecords(dir: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return out;
  for (const name of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, name), "utf8");
    if (text.length > 0) expect(text.endsWith("\n"), `${name} ends mid-record`).toBe(true);
    for (const line of text.split("\n").filter((l) => l.length > 0)) {
      let rec: unknown;
      expect(() => (rec = JSON.parse(line)), `${name}: torn record ${line.slice(0, 120)}`).not.toThrow();
      const checked = LogRecord.safeParse(rec);
      expect(checked.success, `${name}: record does not match the log schema: ${line.slice(0, 200)}`).toBe(
        true,
      );
      out.push(rec as Record<string, unknown>);
    }
  }
  return out;
}

/** The server whose pid the fixture wrote is gone (polls briefly: the kernel reaps asynchronously). */
export async function expectNoOrphan(pidFile: string): Promise<void> {
  expect(existsSync(pidFile), "the fixture never wrote its pid").toBe(true);
  const pid = readPid(pidFile);
  for (let i = 0; i < 50 && !isGone(pid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(isGone(pid), `server pid ${pid} is still alive`).toBe(true);
}
