// `effectgate replay [LOG|DIR] [--json]`: a readable, deterministic transcript of session logs.
import { basename, dirname, relative } from "node:path";
import { UsageError } from "../core/errors.js";
import { terminalSafeJson } from "../core/replay/escape.js";
import { formatFile, jsonRecords } from "../core/replay/format.js";
import { buildTranscript } from "../core/replay/transcript.js";
import type { LogEntry } from "../core/replay/entries.js";
import { parseLogFileName } from "../log/naming.js";
import { defaultSessionsDir, listLogs, readLogFile } from "../log/reader.js";

const HELP = `usage: effectgate replay [LOG|DIR] [--json]

Print a transcript of session logs: one line per message with its time since the session
started, refusals, questions, taint, pin events and server stderr marked with "!!", and a
summary per session. DIR (default $EFFECTGATE_HOME/sessions, else ~/.effectgate/sessions)
is read oldest first. Text that came from a server or a model is shown with control and
bidi characters escaped (\\x1b, \\u202e).

  --json   one JSON record per line (file, session, item, summary) instead of text
`;

export async function run(args: string[]): Promise<number> {
  let json = false;
  let target: string | undefined;
  for (const a of args) {
    if (a === "--help" || a === "-h") {
      process.stdout.write(HELP);
      return 0;
    }
    if (a === "--json") json = true;
    else if (a.startsWith("-"))
      throw new UsageError(`replay: unknown option "${a}"; expected --json or a log file or folder`);
    else if (target !== undefined)
      throw new UsageError(`replay: expected one log file or folder, got a second one "${a}"`);
    else target = a;
  }
  const path = target ?? defaultSessionsDir();
  const files = listLogs(path);
  if (files === undefined) {
    if (target !== undefined)
      throw new UsageError(`replay: expected a log file or folder, got "${target}", which does not exist`);
    process.stdout.write(`no sessions recorded at ${path} yet\n`);
    return 0;
  }
  if (files.length === 0) {
    process.stdout.write(`no session logs (*.jsonl) in ${path}\n`);
    return 0;
  }
  const namedFile = files.length === 1 && files[0] === path;
  for (const parts of sessionParts(namedFile ? withLaterParts(path) : files)) {
    const shownOf = (file: string): string =>
      target === undefined || files.length > 1 ? relative(path, file) || file : file;
    const later = parts.slice(1).map((f) => parseLogFileName(basename(f))?.part);
    const shown = `${shownOf(parts[0] as string)}${later.length > 0 ? ` (+ parts ${later.join(", ")})` : ""}`;
    const sessions = buildTranscript(parts.flatMap(readPart));
    if (json) {
      const names = parts.length > 1 ? parts.map(shownOf) : undefined;
      for (const rec of jsonRecords(shownOf(parts[0] as string), sessions, names))
        process.stdout.write(`${terminalSafeJson(rec)}\n`);
    } else {
      process.stdout.write(`${formatFile(shown, sessions).join("\n")}\n`);
    }
  }
  return 0;
}

/** A log's entries; those of a later part of a rotated session say which part they are in. */
function readPart(file: string): LogEntry[] {
  const part = parseLogFileName(basename(file))?.part ?? 1;
  const entries = readLogFile(file);
  return part === 1 ? entries : entries.map((e) => ({ ...e, part }));
}

const sessionOf = (file: string): string | undefined => {
  const n = parseLogFileName(basename(file));
  return n ? `${n.stamp}-${n.sid}-${n.name ?? ""}` : undefined;
};

/**
 * Files grouped by session: the parts of a rotated session (docs/log-format.md, "File names")
 * list right after their first part, so consecutive files with one stamp, sid and name are one
 * session, read in order as one transcript. Any other file stands alone.
 */
function sessionParts(files: readonly string[]): string[][] {
  const out: string[][] = [];
  let last: string | undefined;
  for (const file of files) {
    const key = sessionOf(file);
    const group = out[out.length - 1];
    if (key !== undefined && key === last && group) group.push(file);
    else out.push([file]);
    last = key;
  }
  return out;
}

/** A first part named on its own comes with the later parts beside it. */
function withLaterParts(file: string): string[] {
  const key = sessionOf(file);
  if (key === undefined || parseLogFileName(basename(file))?.part !== 1) return [file];
  const later = (listLogs(dirname(file)) ?? []).filter(
    (f) => sessionOf(f) === key && (parseLogFileName(basename(f))?.part ?? 1) > 1,
  );
  return [file, ...later];
}
