// Tolerant session-log reader: every line is either a valid record or a reported problem with its
// line number, so one torn or foreign line never hides the rest of a log.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { effectgateHome } from "../platform/home.js";
import { RAW_KEY } from "./record-line.js";
import { LogRecord } from "./records.js";

export type ReadLine = { line: number; record: LogRecord } | { line: number; error: string };

/** Where sessions are kept: `$EFFECTGATE_HOME/sessions`, else `~/.effectgate/sessions`. */
export function defaultSessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(effectgateHome(env), "sessions");
}

/** Parse one log's text. Blank lines are skipped; a missing final newline is fine. */
export function parseLogText(text: string): ReadLine[] {
  const out: ReadLine[] = [];
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const src = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (src.trim() === "") return;
    let value: unknown;
    try {
      value = recordFromLine(src);
    } catch (err) {
      out.push({ line, error: `not valid JSON (torn or foreign line): ${(err as Error).message}` });
      return;
    }
    const parsed = LogRecord.safeParse(value);
    if (parsed.success) {
      out.push({ line, record: parsed.data });
    } else {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? issue.path.join(".") : "record";
      out.push({ line, error: `not a session-log record: ${where}: ${issue?.message ?? "invalid"}` });
    }
  });
  return out;
}

/**
 * One log line as a record object. A frame kept as raw JSON (`json`, always the last member) is
 * given back with `text` holding its exact bytes, sliced from the line, so readers see every frame
 * the same way and duplicate keys survive (parsing would keep only the last). Throws on bad JSON.
 */
export function recordFromLine(src: string): unknown {
  const value: unknown = JSON.parse(src);
  if (value === null || typeof value !== "object" || !("json" in value)) return value;
  const rec = value as Record<string, unknown>;
  const at = src.indexOf(RAW_KEY);
  if (rec["type"] !== "frame" || at === -1 || !src.endsWith("}")) return value;
  const { json: _parsed, ...rest } = rec;
  return { ...rest, text: src.slice(at + RAW_KEY.length, -1) };
}

export function readLogFile(file: string): ReadLine[] {
  return parseLogText(readFileSync(file, "utf8"));
}

/**
 * The log files a path names: the file itself, or every `*.jsonl` directly in a folder, in lexical
 * order (file names start with a UTC timestamp, so this is oldest first). Undefined when the path
 * does not exist.
 */
export function listLogs(path: string): string[] | undefined {
  let st;
  try {
    st = statSync(path);
  } catch {
    return undefined;
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path)
    .filter((n) => n.endsWith(".jsonl") && !n.startsWith("."))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((n) => join(path, n))
    .filter((f) => statSync(f).isFile());
}
