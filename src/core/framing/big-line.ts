/**
 * A line too big to keep as one buffer: decoded to text as it arrives, with its head and SHA-256
 * kept of the bytes. Where the bytes have already gone on (pass-through) nothing more is kept;
 * where the line is held until judged (enforce, strict) its pieces are kept as they arrived, to
 * be written on unjoined (decision 0144). Its long strings
 * are cut as they stream past (string-cut.ts), and so is its structure past a budget
 * (structure-cut.ts), so a 64 MiB frame costs what the judge and the scan read of it, not the
 * chunks, the joined text and the parsed value at once.
 */
import { createHash } from "node:crypto";
import type { Eol } from "./line-splitter.js";
import { JudgedCallWatch } from "../wire/judged-call-text.js";
import { JsonStringCutter } from "../json/string-cut.js";
import { JsonStructureCutter, type StructureCutOptions } from "../json/structure-cut.js";

export interface BigLineOptions {
  /** Bytes of the frame's head to keep. */
  headBytes: number;
  /** Characters kept of each JSON string in the frame (see string-cut.ts). */
  keepChars: number;
  /** Characters of text past which deep arrays and objects keep no more elements (structure-cut.ts). */
  keepText: number;
  /** Where the structure cut starts and what it counts (structure-cut.ts). */
  structure?: StructureCutOptions;
  /**
   * Test the whole text, cut parts included, the way looksLikeJudgedCall does (a client line that
   * does not parse may still be a call a lenient server reads).
   */
  watchCalls?: boolean;
  /**
   * Keep the bytes as the pieces they arrived in, for a relay that holds the line until it is
   * judged: it writes them on as they are, never joined into one buffer or string.
   */
  keepBytes?: boolean;
}

/** What was left out of a big frame's text for reading. */
export interface FrameCut {
  /** String literals shortened. */
  strings: number;
  /** Arrays and objects cut short. */
  containers: number;
  /** Characters of JSON text dropped, by both. */
  chars: number;
  /** Structure was cut before the content scan's budget was used up (structure-cut.ts). */
  beforeScan?: true;
}

export interface BigFrame {
  /**
   * The frame decoded as UTF-8 (invalid sequences become U+FFFD, as Buffer#toString does), each
   * string literal cut to `keepChars` characters of its value, and deep containers cut short
   * once `keepText` characters are kept.
   */
  text: string;
  /** Present when anything was cut: then `text` is not the whole frame. */
  cut?: FrameCut;
  /** Byte length without the line terminator. */
  size: number;
  eol: Eol;
  /** The first bytes of the frame (at most the head size asked for). */
  head: Buffer;
  /** Hex SHA-256 of the whole frame without its terminator. */
  sha256: string;
  /** A CR with more of the frame after it, anywhere in the whole frame (cut parts included). */
  crInside: boolean;
  /** With `watchCalls`: whether the whole text looks like a judged call (looksLikeJudgedCall). */
  looksJudged?: boolean;
  /**
   * With `keepBytes`: the frame exactly as received, terminator included, in the pieces it came
   * in. Written one after the other they are the line's raw bytes.
   */
  pieces?: Buffer[];
}

const CR = 0x0d;
const CR_BYTE = Buffer.from([CR]);
const LF_BYTE = Buffer.from([0x0a]);

export class BigLine {
  private readonly hash = createHash("sha256");
  // ignoreBOM keeps a leading U+FEFF, so the text is what Buffer#toString would give.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly strings: JsonStringCutter;
  private readonly structure: JsonStructureCutter;
  private readonly headParts: Buffer[] = [];
  private headLength = 0;
  private size = 0;
  /** A CR ending the bytes so far: part of the frame, or of a CRLF terminator if LF comes next. */
  private heldCr = false;
  /** The frame's bytes so far end with a CR (a CR is "inside" once anything follows it). */
  private crLast = false;
  private crInside = false;
  private readonly watch: JudgedCallWatch | undefined;
  /** With `keepBytes`: every piece added, as given (views of the chunks they came in). */
  private readonly pieces: Buffer[] | undefined;

  private readonly headBytes: number;

  constructor(options: BigLineOptions) {
    this.headBytes = options.headBytes;
    this.strings = new JsonStringCutter(options.keepChars);
    this.structure = new JsonStructureCutter(options.keepText, options.structure);
    this.watch = options.watchCalls ? new JudgedCallWatch() : undefined;
    this.pieces = options.keepBytes ? [] : undefined;
  }

  add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pieces?.push(bytes);
    if (this.headLength < this.headBytes) {
      // A copy, so that the chunk it came from can be let go.
      const part = Buffer.from(bytes.subarray(0, this.headBytes - this.headLength));
      this.headParts.push(part);
      this.headLength += part.length;
    }
    // A CR is read only once it is known not to be the first half of a CRLF terminator.
    if (this.heldCr) this.take(CR_BYTE);
    this.heldCr = bytes[bytes.length - 1] === CR;
    this.take(this.heldCr ? bytes.subarray(0, bytes.length - 1) : bytes);
    this.size += bytes.length;
  }

  private take(bytes: Buffer): void {
    if (!this.crInside && bytes.length > 0) {
      const cr = bytes.indexOf(CR);
      this.crInside = this.crLast || (cr !== -1 && cr < bytes.length - 1);
      this.crLast = bytes[bytes.length - 1] === CR;
    }
    this.hash.update(bytes);
    this.read(this.decoder.decode(bytes, { stream: true }));
  }

  private read(text: string): void {
    this.watch?.add(text);
    this.strings.add(text);
    this.structure.add(this.strings.take());
  }

  /** The line ended with LF (`atEof` false) or the stream ended (`atEof` true: no terminator). */
  finish(atEof: boolean): BigFrame {
    let size = this.size;
    let eol: Eol = atEof ? "" : "\n";
    if (this.heldCr && !atEof) {
      eol = "\r\n";
      size -= 1;
    } else if (this.heldCr) {
      this.take(CR_BYTE);
    }
    this.read(this.decoder.decode());
    const shortened = this.strings.finish();
    this.structure.add(shortened.text);
    const { text, cut: dropped } = this.structure.finish();
    const head = Buffer.concat(this.headParts).subarray(0, Math.min(this.headLength, size));
    const sha256 = this.hash.digest("hex");
    const frame: BigFrame = { text, size, eol, head, sha256, crInside: this.crInside };
    if (this.watch) frame.looksJudged = this.watch.found();
    // The CR of a CRLF is among the pieces already; the LF that ended the line is not.
    if (this.pieces && !atEof) this.pieces.push(LF_BYTE);
    if (this.pieces) frame.pieces = this.pieces;
    if (shortened.cut !== undefined || dropped !== undefined)
      frame.cut = {
        strings: shortened.cut?.strings ?? 0,
        containers: dropped?.containers ?? 0,
        chars: (shortened.cut?.chars ?? 0) + (dropped?.chars ?? 0),
        ...(dropped?.beforeScan ? { beforeScan: true as const } : {}),
      };
    return frame;
  }
}
