// Tolerant session-log reader: every line is either a valid record or a reported problem with its
// line number, so one torn or foreign line never hides the rest of a log.
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readFailure } from "./read-failure.js";
import { RAW_KEY } from "./record-line.js";
import { LogRecord } from "./records.js";

export type ReadLine = { line: number; record: LogRecord } | { line: number; error: string };

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

/** A log's lines, or why the file could not be read (a folder, a dangling link, no permission). */
export type LogFileRead = { ok: true; lines: ReadLine[] } | { ok: false; why: string };

export function tryReadLogFile(file: string): LogFileRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    return { ok: false, why: readFailure(file, err) };
  }
  return { ok: true, lines: parseLogText(text) };
}

/**
 * What a path names: `missing` when nothing is there; `unreadable` when it is a folder that
 * cannot be listed (or a path that cannot be looked at); else the log files, the path itself
 * when it is not a folder, or every `*.jsonl` directly in the folder in lexical order (file
 * names start with a UTC timestamp, so this is oldest first). Entries that cannot be looked at
 * (a dangling link, no permission) are listed all the same: reading them says why they fail,
 * and the caller reports that file and goes on. Only sub-folders are left out.
 */
export type LogListing =
  { kind: "missing" } | { kind: "unreadable"; why: string } | { kind: "file" | "folder"; files: string[] };

export function listLogs(path: string): LogListing {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      return { kind: "unreadable", why: readFailure(path, err) };
    // A name that is there but leads nowhere (a dangling link) is a file that cannot be read.
    return existsAsLink(path) ? { kind: "file", files: [path] } : { kind: "missing" };
  }
  if (!st.isDirectory()) return { kind: "file", files: [path] };
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (err) {
    return { kind: "unreadable", why: readFailure(path, err) };
  }
  const files = names
    .filter((n) => n.endsWith(".jsonl") && !n.startsWith("."))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((n) => join(path, n))
    .filter((f) => !isFolder(f));
  return { kind: "folder", files };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a dangling link or a file we may not look at: reading it will say why
  }
}

function existsAsLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
