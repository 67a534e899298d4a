// Log files grouped by session: the parts of a rotated session (docs/log-format.md, "File
// names") are one session, read in order. Shared by replay, status and eval.
import { basename, dirname } from "node:path";
import { parseLogFileName, stampTime } from "./naming.js";
import { listLogs, type ReadLine } from "./reader.js";

const sessionOf = (file: string): string | undefined => {
  const n = parseLogFileName(basename(file));
  return n ? `${n.stamp}-${n.sid}-${n.name ?? ""}` : undefined;
};

/**
 * Consecutive files with one stamp, sid and name are one session (later parts list right after
 * their first part); any other file stands alone.
 */
export function sessionParts(files: readonly string[]): string[][] {
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
export function withLaterParts(file: string): string[] {
  const key = sessionOf(file);
  if (key === undefined || parseLogFileName(basename(file))?.part !== 1) return [file];
  const beside = listLogs(dirname(file));
  const later = (beside.kind === "folder" ? beside.files : []).filter(
    (f) => sessionOf(f) === key && (parseLogFileName(basename(f))?.part ?? 1) > 1,
  );
  return [file, ...later];
}

/** A log's entries; those of a later part of a rotated session say which part they are in. */
export function partEntries(file: string, entries: ReadLine[]): (ReadLine & { part?: number })[] {
  const part = parseLogFileName(basename(file))?.part ?? 1;
  return part === 1 ? entries : entries.map((e) => ({ ...e, part }));
}

/** When a log's name says its session started (ms), or undefined for a name not ours. */
export function startOf(file: string): number | undefined {
  const stamp = parseLogFileName(basename(file))?.stamp;
  return stamp === undefined ? undefined : stampTime(stamp);
}
