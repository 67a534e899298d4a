import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { effectgateHome } from "../platform/home.js";

/** Where sessions are kept: `$EFFECTGATE_HOME/sessions`, else `~/.effectgate/sessions`. */
export function defaultSessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(effectgateHome(env), "sessions");
}

/**
 * Session-log file names. A plain `ls` must list sessions in the order they started, two runs
 * started in the same millisecond must never pick the same name, and the parts of a rotated
 * session must list right after the first part, in order.
 *
 *   <YYYYMMDDTHHMMSS.mmmZ>-<sid>[-<name>].jsonl             first part
 *   <YYYYMMDDTHHMMSS.mmmZ>-<sid>[-<name>].part000002.jsonl  later parts
 *
 * The stamp is fixed-width UTC (no colons, so the name is valid on Windows too); the sid is
 * fixed-width hex, so no sid is a prefix of another; the sanitised name holds no dot, so
 * ".jsonl" < ".part…" keeps part 1 ahead of part 2 ("j" < "p"), and the six-digit part number
 * keeps later parts in numeric order.
 */

/** Bytes of randomness in a session id (16 hex characters). */
const SID_BYTES = 8;
const NAME_MAX = 48;
const PART_DIGITS = 6;

export function newSid(): string {
  return randomBytes(SID_BYTES).toString("hex");
}

/** `2026-11-30T10:12:09.123Z` → `20261130T101209.123Z`. */
export function fileStamp(t: Date): string {
  const iso = t.toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 23)}Z`;
}

/**
 * Reduce a user-supplied name to `[A-Za-z0-9_-]`, at most 48 characters; null when nothing is
 * left. Path separators, dots and control characters can never reach the file system this way.
 */
export function sanitizeName(name: string | null | undefined): string | null {
  if (name == null) return null;
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, NAME_MAX)
    .replace(/[_-]+$/, "");
  return cleaned === "" ? null : cleaned;
}

/** The name shared by every part of one session, without extension. */
export function sessionBase(start: Date, sid: string, name: string | null): string {
  return name ? `${fileStamp(start)}-${sid}-${name}` : `${fileStamp(start)}-${sid}`;
}

/** File name of part `part` (1-based) of a session. */
export function partFileName(base: string, part: number): string {
  if (part <= 1) return `${base}.jsonl`;
  return `${base}.part${String(part).padStart(PART_DIGITS, "0")}.jsonl`;
}

export interface ParsedLogName {
  stamp: string;
  sid: string;
  name: string | null;
  part: number;
}

const NAME_RE = /^(\d{8}T\d{6}\.\d{3}Z)-([0-9a-f]{16})(?:-([A-Za-z0-9_-]+))?(?:\.part(\d{6,}))?\.jsonl$/;

/** Parse a session-log file name written by this module; null for anything else. */
export function parseLogFileName(fileName: string): ParsedLogName | null {
  const m = NAME_RE.exec(fileName);
  if (!m) return null;
  return {
    stamp: m[1] as string,
    sid: m[2] as string,
    name: m[3] ?? null,
    part: m[4] === undefined ? 1 : Number(m[4]),
  };
}

/** `20261130T101209.123Z` (fileStamp's form) → its time in ms since the epoch. */
export function stampTime(stamp: string): number {
  return Date.parse(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13)}`,
  );
}
