// Shapes shared by the relay's parts.
import type { Eol } from "../../core/framing/line-splitter.js";
import { isSpace } from "../../core/json/json-chars.js";
import type { FrameAuthor } from "../../log/records.js";

/**
 * What the relay needs from the session log. src/log/writer.ts's SessionLog has this shape (and
 * more); tests may pass a recorder.
 */
export interface RelayLog {
  /**
   * `validJson`: the relay parsed these exact bytes (the log may then keep them unescaped).
   * `by`: effectgate wrote the frame itself (a refusal, an error answer, a question), or its
   * `--url` bridge did (`bridge`, decision 0114).
   */
  frame(
    dir: "c2s" | "s2c",
    bytes: Buffer,
    eol: Eol,
    nonJson: boolean,
    validJson?: boolean,
    by?: FrameAuthor,
  ): void;
  /** A frame known only by its size, head and hash (a huge line in pass-through). */
  bigFrame(
    dir: "c2s" | "s2c",
    f: { size: number; eol: Eol; head: Buffer; sha256: string },
    nonJson: boolean,
  ): void;
  stderr(text: string): void;
  event(ev: string, data: Record<string, unknown>): void;
  exit(e: {
    code: number | null;
    signal: string | null;
    exitCode: number;
    counts: Record<string, number>;
  }): void;
}

/** Counts kept for the exit record and for benchmarks. */
export interface RelayStats {
  /** Frames received from the client / from the server. */
  c2sFrames: number;
  s2cFrames: number;
  /** Client frames handed to the server. */
  forwarded: number;
  /** Requests answered with a refusal instead of being forwarded. */
  refused: number;
  /** Client frames effectgate kept for itself (answers to its own asks, cancels of refused calls). */
  consumed: number;
  /** Frames effectgate wrote to the client itself (refusals, asks). */
  originated: number;
  stderrLines: number;
}

export function newStats(): RelayStats {
  return { c2sFrames: 0, s2cFrames: 0, forwarded: 0, refused: 0, consumed: 0, originated: 0, stderrLines: 0 };
}

/**
 * For frames that are passed through without parsing: a cheap guess at "not JSON" (JSON-RPC
 * frames start with `{` or `[` and end with `}` or `]`). Parsed frames are labelled exactly.
 */
export function looksNonJson(bytes: Buffer): boolean {
  let i = 0;
  let j = bytes.length - 1;
  while (i <= j && isSpace(bytes[i] as number)) i++;
  while (j >= i && isSpace(bytes[j] as number)) j--;
  if (i > j) return true;
  const first = bytes[i];
  const last = bytes[j];
  return !((first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d));
}
