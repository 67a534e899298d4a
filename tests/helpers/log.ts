import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { recordFromLine } from "../../src/log/reader.js";
import { LogRecord } from "../../src/log/records.js";

/** Fresh HOME and EFFECTGATE_HOME per test; returns a function giving the current temp root. */
export function useTempHome(): () => string {
  let root = "";
  const saved = { HOME: process.env["HOME"], EFFECTGATE_HOME: process.env["EFFECTGATE_HOME"] };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "eg-log-"));
    process.env["HOME"] = join(root, "home");
    process.env["EFFECTGATE_HOME"] = join(root, "egh");
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  return () => root;
}

/** Log files in a folder, in listing (lexical) order. */
export function logFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Every line of a file as a record; fails the test when a line is torn, not terminated, or not
 * a valid LogRecord — so every test that reads a log also checks the writer's output shapes.
 */
export function readRecords(file: string): LogRecord[] {
  const text = readFileSync(file, "utf8");
  if (text === "") return [];
  expect(text.endsWith("\n"), `${file} ends with a newline`).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line, i) => {
      // The line as written must match the schema, and so must what the reader makes of it
      // (a raw `json` frame comes back with its exact bytes as `text`).
      const written = LogRecord.safeParse(JSON.parse(line));
      expect(written.success, `${file}:${i + 1}: ${written.error?.message ?? ""}`).toBe(true);
      const parsed = LogRecord.safeParse(recordFromLine(line));
      expect(parsed.success, `${file}:${i + 1}: ${parsed.error?.message ?? ""}`).toBe(true);
      return parsed.data as LogRecord;
    });
}

/** A clock that starts at `start` and moves `stepMs` per call. */
export function steppingClock(start = Date.UTC(2026, 10, 30, 10, 0, 0, 0), stepMs = 1): () => Date {
  let t = start;
  return () => {
    const d = new Date(t);
    t += stepMs;
    return d;
  };
}

export const sampleHeader = {
  effectgate: "0.1.0",
  argv: ["--level", "enforce", "--", "node", "server.js"],
  server: ["node", "server.js"],
  name: "files",
  cwd: "/tmp/project",
  pid: 4242,
  platform: "linux",
  level: "enforce" as const,
  from: "flag" as const,
  policy: { source: "default", sha256: "ab".repeat(32) },
  lock: null,
};
