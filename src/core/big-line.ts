/**
 * A line too big to keep as bytes: decoded to text as it arrives, with only its head and SHA-256
 * kept of the bytes. Used where the bytes have already gone on (pass-through), so a 64 MiB frame
 * is held once, as the text the judge needs, instead of as chunks, joined bytes and text at once.
 */
import { createHash } from "node:crypto";
import type { Eol } from "./line-splitter.js";

export interface BigFrame {
  /** The frame decoded as UTF-8 (invalid sequences become U+FFFD, as Buffer#toString does). */
  text: string;
  /** Byte length without the line terminator. */
  size: number;
  eol: Eol;
  /** The first bytes of the frame (at most the head size asked for). */
  head: Buffer;
  /** Hex SHA-256 of the whole frame without its terminator. */
  sha256: string;
}

const CR = 0x0d;
const CR_BYTE = Buffer.from([CR]);

export class BigLine {
  private readonly hash = createHash("sha256");
  // ignoreBOM keeps a leading U+FEFF, so the text is what Buffer#toString would give.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly pieces: string[] = [];
  private readonly headParts: Buffer[] = [];
  private headLength = 0;
  private size = 0;
  /** A CR ending the bytes so far: part of the frame, or of a CRLF terminator if LF comes next. */
  private heldCr = false;

  constructor(private readonly headBytes: number) {}

  add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.headLength < this.headBytes) {
      // A copy, so that the chunk it came from can be let go.
      const part = Buffer.from(bytes.subarray(0, this.headBytes - this.headLength));
      this.headParts.push(part);
      this.headLength += part.length;
    }
    if (this.heldCr) this.hash.update(CR_BYTE);
    this.heldCr = bytes[bytes.length - 1] === CR;
    this.hash.update(this.heldCr ? bytes.subarray(0, bytes.length - 1) : bytes);
    this.pieces.push(this.decoder.decode(bytes, { stream: true }));
    this.size += bytes.length;
  }

  /** The line ended with LF (`atEof` false) or the stream ended (`atEof` true: no terminator). */
  finish(atEof: boolean): BigFrame {
    this.pieces.push(this.decoder.decode());
    let text = this.pieces.join("");
    this.pieces.length = 0;
    let size = this.size;
    let eol: Eol = atEof ? "" : "\n";
    if (this.heldCr && !atEof) {
      eol = "\r\n";
      size -= 1;
      text = text.slice(0, -1);
    } else if (this.heldCr) {
      this.hash.update(CR_BYTE);
    }
    const head = Buffer.concat(this.headParts).subarray(0, Math.min(this.headLength, size));
    return { text, size, eol, head, sha256: this.hash.digest("hex") };
  }
}
