// The shape replay and eval read from a session log. src/log/records.ts (zod) is the authority;
// core may not import src/log, so this mirrors only the fields read here, structurally, and the
// reader's records are assignable to it.

export interface HeaderLike {
  type: "header";
  seq: number;
  t: string;
  sid: string;
  server: string[];
  name: string | null;
  cwd: string;
  platform: string;
  level: string;
  from: string;
  policy: { source: string; sha256: string } | null;
  /** The log marks effectgate's own frames (`by`); absent in logs of earlier versions. */
  marksOwn?: true | undefined;
  /** How strict could ask in this relay (decision 0133); absent in logs of earlier versions. */
  ask?: { channels: readonly string[] } | undefined;
}

export interface FrameLike {
  type: "frame";
  seq: number;
  t: string;
  sid: string;
  dir: "c2s" | "s2c";
  size: number;
  text?: string | undefined;
  base64?: string | undefined;
  truncated?: true | undefined;
  nonJson?: true | undefined;
  /**
   * effectgate wrote this frame itself (a refusal, an error answer, a question); `bridge`: the
   * `--url` bridge wrote it in the server's place, and it is read as the server's (decision 0114).
   */
  by?: "effectgate" | "bridge" | undefined;
}

export interface StderrLike {
  type: "stderr";
  seq: number;
  t: string;
  sid: string;
  text: string;
}

export interface EventLike {
  type: "event";
  seq: number;
  t: string;
  sid: string;
  ev: string;
  data: Record<string, unknown>;
}

export interface ExitLike {
  type: "exit";
  seq: number;
  t: string;
  sid: string;
  code: number | null;
  signal: string | null;
  exitCode: number;
}

export type RecordLike = HeaderLike | FrameLike | StderrLike | EventLike | ExitLike;

/**
 * One line of a log file: a valid record, or why the line could not be read. `part` is set for
 * the lines of a rotated session's later parts (2, 3 …), whose line numbers count in that file.
 */
export type LogEntry = ({ line: number; record: RecordLike } | { line: number; error: string }) & {
  part?: number;
};

/** Milliseconds since the epoch for a record time, or NaN. Parsing a given string is not a clock. */
export function timeOf(t: string): number {
  return Date.parse(t);
}
