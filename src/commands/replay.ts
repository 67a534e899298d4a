// `effectgate replay [--json] [LOG|DIR]`: a readable, deterministic transcript of session logs.
import { basename, dirname, relative } from "node:path";
import { EXIT, UsageError } from "../core/errors.js";
import { terminalSafeJson } from "../core/replay/escape.js";
import { formatFile, jsonRecords, type Unreadable } from "../core/replay/format.js";
import { buildTranscript } from "../core/replay/transcript.js";
import type { LogEntry } from "../core/replay/entries.js";
import { parseLogFileName } from "../log/naming.js";
import { defaultSessionsDir, listLogs, tryReadLogFile, type ReadLine } from "../log/reader.js";
import type { CommandDeclaration } from "./cli/declaration.js";

export const command: CommandDeclaration = {
  description:
    "Print a transcript of session logs: one line per message with its time since the session " +
    'started; refusals, questions, taint, pin events and server stderr are marked "!!"; a ' +
    "summary ends each session. A folder is read oldest first. Text from a server or a model " +
    "is shown with control and bidi characters escaped (\\x1b, \\u202e). A log in the folder " +
    "that cannot be read is reported and skipped, and replay exits 1; a log named here that " +
    "cannot be read is a usage error (exit 2).",
  options: [
    {
      flags: "--json",
      meaning: "one JSON record per line (file, session, item, summary) instead of text",
      default: "off",
    },
  ],
  operands: [
    {
      name: "[LOG|DIR]",
      meaning: "a session log, or a folder of them",
      default: "$EFFECTGATE_HOME/sessions, else ~/.effectgate/sessions",
    },
  ],
  examples: [
    { command: "effectgate replay", says: "every session recorded on this machine" },
    {
      command: "effectgate replay --json ~/.effectgate/sessions | jq 'select(.type == \"item\")'",
      says: "the same as JSON records, one per line",
    },
  ],
  run: (parsed) => replay(parsed.operands[0], parsed.options.json === true),
};

async function replay(target: string | undefined, json: boolean): Promise<number> {
  const path = target ?? defaultSessionsDir();
  const listing = listLogs(path);
  if (listing.kind === "unreadable")
    throw new UsageError(`expected a readable log file or folder, got "${path}": ${listing.why}`);
  if (listing.kind === "missing") {
    if (target !== undefined)
      throw new UsageError(`expected a log file or folder, got "${target}", which does not exist`);
    return nothingToReplay(json, path, false);
  }
  const files = listing.files;
  if (files.length === 0) return nothingToReplay(json, path, true);
  const namedFile = listing.kind === "file";
  let skipped = 0;
  for (const parts of sessionParts(namedFile ? withLaterParts(path) : files)) {
    const shownOf = (file: string): string =>
      target === undefined || files.length > 1 ? relative(path, file) || file : file;
    const later = parts.slice(1).map((f) => parseLogFileName(basename(f))?.part);
    const shown = `${shownOf(parts[0] as string)}${later.length > 0 ? ` (+ parts ${later.join(", ")})` : ""}`;
    const read = parts.map((file) => ({ file, got: tryReadLogFile(file) }));
    const unreadable: Unreadable[] = [];
    for (const { file, got } of read) {
      if (got.ok) continue;
      // The file the user named is the input itself: nothing else to show, a usage error.
      if (namedFile && file === path)
        throw new UsageError(`expected a readable log file, got "${path}": ${got.why}`);
      unreadable.push({ file: shownOf(file), why: got.why });
      process.stderr.write(
        `effectgate: replay: skipped ${JSON.stringify(file)}: expected a readable session log, got ${got.why}\n`,
      );
    }
    skipped += unreadable.length;
    const sessions = buildTranscript(
      read.flatMap(({ file, got }) => (got.ok ? partEntries(file, got.lines) : [])),
    );
    if (json) {
      const names = parts.length > 1 ? parts.map(shownOf) : undefined;
      for (const rec of jsonRecords(shownOf(parts[0] as string), sessions, names, unreadable))
        process.stdout.write(`${terminalSafeJson(rec)}\n`);
    } else {
      process.stdout.write(`${formatFile(shown, sessions, unreadable).join("\n")}\n`);
    }
  }
  // A transcript with a hole in it is not a clean run: exit 1 says something was left out
  // (docs/decisions/0064-unreadable-inputs-and-shared-taint-freshness.md).
  return skipped > 0 ? EXIT.finding : EXIT.ok;
}

/**
 * No logs at all. With --json the answer is still JSON (one `folder` record), so that
 * `replay --json | jq` works on an empty or new machine.
 */
function nothingToReplay(json: boolean, path: string, exists: boolean): number {
  if (json) process.stdout.write(`${terminalSafeJson({ type: "folder", folder: path, exists, logs: 0 })}\n`);
  else if (exists) process.stdout.write(`no session logs (*.jsonl) in ${path}\n`);
  else process.stdout.write(`no sessions recorded at ${path} yet\n`);
  return EXIT.ok;
}

/** A log's entries; those of a later part of a rotated session say which part they are in. */
function partEntries(file: string, entries: ReadLine[]): LogEntry[] {
  const part = parseLogFileName(basename(file))?.part ?? 1;
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
  const beside = listLogs(dirname(file));
  const later = (beside.kind === "folder" ? beside.files : []).filter(
    (f) => sessionOf(f) === key && (parseLogFileName(basename(f))?.part ?? 1) > 1,
  );
  return [file, ...later];
}
