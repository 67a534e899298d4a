/**
 * Splits a byte stream into newline-delimited frames without ever re-encoding it.
 *
 * Pieces of an unfinished line are kept as a list of Buffers and joined exactly once when the
 * newline arrives, so a frame of N bytes costs O(N) however finely it was chunked (a string +=
 * or repeated Buffer.concat would be quadratic). A frame that arrives inside one chunk is a
 * zero-copy view of that chunk.
 *
 * With `bigAfter` set and a `emitBig` callback given, a line that grows past `bigAfter` bytes is
 * no longer joined: it is decoded as it arrives, its long strings cut (see big-line.ts), and
 * emitted as a BigFrame (with its pieces, when the options ask to keep the bytes).
 */
import { BigLine, type BigFrame, type BigLineOptions } from "./big-line.js";

export type Eol = "\n" | "\r\n" | "";

export interface Frame {
  /** The frame exactly as received, terminator included: what gets forwarded. */
  raw: Buffer;
  /** A view of `raw` without its line terminator: what gets inspected and logged. */
  bytes: Buffer;
  /** The terminator as it arrived; "" only for a final frame flushed at end of stream. */
  eol: Eol;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Past this many bytes without a newline the stream is given up on: Node cannot even turn such a
 * line into a string, and memory would grow without bound. Generous on purpose.
 */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;
  /** The line being decoded as text, once it grew past `bigAfter`. */
  private big: BigLine | null = null;

  constructor(
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
    private readonly bigLines?: BigLineOptions & { after: number },
  ) {}

  /** True once a line grew past the limit; nothing more is emitted after that. */
  get overflow(): boolean {
    return this.overflowed;
  }

  /** Bytes held for a line that has not ended yet. */
  get buffered(): number {
    return this.pendingBytes;
  }

  /**
   * Feeds one chunk; calls `emit` for every frame it completes, in order. Returns false when an
   * unfinished line has grown past the limit (the held bytes are dropped; see `overflow`).
   */
  push(chunk: Buffer, emit: (frame: Frame) => void, emitBig?: (frame: BigFrame) => void): boolean {
    if (this.overflowed) return false;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) break;
      if (this.big !== null && emitBig) {
        this.big.add(chunk.subarray(start, nl));
        const done = this.big.finish(false);
        this.big = null;
        this.pendingBytes = 0;
        emitBig(done);
        start = nl + 1;
        continue;
      }
      let line: Buffer;
      if (this.pending.length === 0) {
        line = chunk.subarray(start, nl + 1);
      } else {
        this.pending.push(chunk.subarray(start, nl + 1));
        line = Buffer.concat(this.pending, this.pendingBytes + (nl + 1 - start));
        this.pending = [];
        this.pendingBytes = 0;
      }
      emit(withoutCr(line));
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.big !== null) this.big.add(rest);
      else this.pending.push(rest);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxFrameBytes) {
        this.overflowed = true;
        this.pending = [];
        this.pendingBytes = 0;
        this.big = null;
        return false;
      }
      // A CR ending the chunk may be the first half of a CRLF terminator: not part of the frame,
      // so a frame of exactly `after` bytes whose CR came before its LF is still kept whole.
      const frameBytes = this.pendingBytes - (chunk[chunk.length - 1] === CR ? 1 : 0);
      if (this.big === null && emitBig && this.bigLines && frameBytes > this.bigLines.after) {
        this.big = new BigLine(this.bigLines);
        for (const piece of this.pending) this.big.add(piece);
        this.pending = [];
      }
    }
    return true;
  }

  /**
   * End of stream: a last frame without a newline is still a frame (eol ""). Nothing is
   * emitted when the stream ended exactly after a newline.
   */
  end(emit: (frame: Frame) => void, emitBig?: (frame: BigFrame) => void): void {
    if (this.big !== null && emitBig) {
      const done = this.big.finish(true);
      this.big = null;
      this.pendingBytes = 0;
      emitBig(done);
      return;
    }
    if (this.overflowed || this.pending.length === 0) return;
    const line =
      this.pending.length === 1
        ? (this.pending[0] as Buffer)
        : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    emit({ raw: line, bytes: line, eol: "" });
  }
}

/** `line` ends with LF; a CR just before it belongs to the terminator. */
function withoutCr(line: Buffer): Frame {
  const n = line.length;
  if (n >= 2 && line[n - 2] === CR) return { raw: line, bytes: line.subarray(0, n - 2), eol: "\r\n" };
  return { raw: line, bytes: line.subarray(0, n - 1), eol: "\n" };
}
