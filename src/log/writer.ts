import { join } from "node:path";
import { realFileIo, type FileIo } from "../platform/secure-file.js";
import { DEFAULT_MAX_FRAME_BYTES, frameBody, TRUNCATED_HEAD_BYTES, truncatedBody } from "./frame-text.js";
import { newSid, partFileName, sanitizeName, sessionBase } from "./naming.js";
import { describeError, PartFile } from "./part-file.js";
import type { ExitRecord, FrameAuthor, HeaderRecord } from "./records.js";
import { embeddable, type Fields, type Prepared, prepareRecord, RAW_TAIL } from "./record-line.js";

/**
 * The session log writer: one JSONL file per run (plus rotated parts), owner-only, one record
 * per line. Every record goes to disk with one synchronous write before the caller continues,
 * so a frame is logged before the relay forwards it. Writing never throws and never stops the
 * relay: failures are reported once, counted, retried, and closed with a `log-gap` event
 * (docs/decisions/0005-log-write-failures.md). Format: docs/log-format.md.
 */

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Raw frame bytes past this size are written as they are, not copied after the record's head. */
const SEPARATE_WRITE_BYTES = 64 * 1024;
const RAW_TAIL_BYTES = Buffer.from(RAW_TAIL);
const DEFAULT_MAX_STDERR_BYTES = 1024 * 1024;

export interface SessionLogOptions {
  dir: string;
  name?: string | null;
  /** Rotate before a record would take a part past this size; 0 turns rotation off. */
  maxBytes?: number;
  maxFrameBytes?: number;
  /** Total bytes of server stderr recorded per session before `stderr-capped`. */
  maxStderrBytes?: number;
  now?: () => Date;
  /** Gets whole stderr lines, "effectgate: " prefix included; the sink must not add another. */
  warn?: (line: string) => void;
  /** Tests only: file-system calls and platform, to simulate failures root cannot provoke. */
  io?: FileIo;
  platform?: NodeJS.Platform;
}

export interface SessionLog {
  /** The part currently written (or last written); null until a file could be created. */
  readonly path: string | null;
  readonly sid: string;
  header(h: Omit<HeaderRecord, "type" | "seq" | "t" | "sid" | "marksOwn">): void;
  /**
   * `validJson`: the caller parsed exactly these bytes as JSON, so the record may hold them as
   * they are (the `json` member) instead of escaping them into a string. `by`: effectgate wrote
   * the frame itself (a refusal, an error answer, a question), not the client or the server.
   */
  frame(
    dir: "c2s" | "s2c",
    bytes: Buffer,
    eol: "\n" | "\r\n" | "",
    nonJson: boolean,
    validJson?: boolean,
    by?: FrameAuthor,
  ): void;
  /** A frame whose bytes were not kept (a huge line in pass-through): logged as head + hash. */
  bigFrame(
    dir: "c2s" | "s2c",
    f: { size: number; eol: "\n" | "\r\n" | ""; head: Buffer; sha256: string },
    nonJson: boolean,
  ): void;
  stderr(text: string): void;
  event(ev: string, data: Record<string, unknown>): void;
  exit(e: Omit<ExitRecord, "type" | "seq" | "t" | "sid">): void;
  close(): void;
}

export function openSessionLog(opts: SessionLogOptions): SessionLog {
  return new SessionLogWriter(opts);
}

class SessionLogWriter implements SessionLog {
  private readonly name: string | null;
  private readonly maxBytes: number;
  private readonly maxFrameBytes: number;
  private readonly maxStderrBytes: number;
  private readonly now: () => Date;
  private readonly warnFn: (line: string) => void;
  private readonly file: PartFile;

  private sidValue = newSid();
  private base: string;
  private seq = 0;
  /** Bytes at the head of the current part that only repeat context (header copy, rotated). */
  private preambleBytes = 0;
  /** The header record's line, copied to the head of every later part. */
  private headerLine: string | null = null;
  private headerInPart = false;
  /** Set when the next part continues a previous one: the `rotated` event still to write. */
  private continues: { from: string; reason: string } | null = null;
  private lost = 0;
  private lastError = "";
  private warnedFailure = false;
  private warnedDir = false;
  private stderrBytes = 0;
  private stderrCapped = false;
  private closed = false;

  constructor(private readonly opts: SessionLogOptions) {
    this.name = sanitizeName(opts.name);
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.maxFrameBytes = opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.maxStderrBytes = opts.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
    this.now = opts.now ?? (() => new Date());
    this.warnFn = opts.warn ?? ((line) => void process.stderr.write(`${line}\n`));
    this.file = new PartFile(opts.dir, opts.io ?? realFileIo, opts.platform ?? process.platform, (line) => {
      if (this.warnedDir) return;
      this.warnedDir = true;
      this.warn(line);
    });
    this.base = sessionBase(this.safeNow(), this.sidValue, this.name);
    // Open now, so a folder that cannot be written is reported before the first frame.
    if (!this.openPart(this.timestamp())) this.reportFailure();
  }

  get sid(): string {
    return this.sidValue;
  }

  get path(): string | null {
    return this.file.path;
  }

  header(h: Omit<HeaderRecord, "type" | "seq" | "t" | "sid" | "marksOwn">): void {
    // Every frame this writer logs for effectgate says so (`by`): readers may rely on it.
    this.commit({ type: "header", ...h, marksOwn: true });
  }

  frame(
    dir: "c2s" | "s2c",
    bytes: Buffer,
    eol: "\n" | "\r\n" | "",
    nonJson: boolean,
    validJson = false,
    by?: FrameAuthor,
  ): void {
    const who = by ? { by } : {};
    if (validJson && !nonJson && bytes.length <= this.maxFrameBytes && embeddable(bytes)) {
      // The common case: no escaping, no copy of the text; the bytes go into the line as they are.
      this.commit({ type: "frame", dir, size: bytes.length, eol, ...who }, bytes);
      return;
    }
    const { size, ...body } = frameBody(bytes, this.maxFrameBytes);
    this.commit({ type: "frame", dir, size, eol, ...body, ...(nonJson ? { nonJson: true } : {}), ...who });
  }

  bigFrame(
    dir: "c2s" | "s2c",
    f: { size: number; eol: "\n" | "\r\n" | ""; head: Buffer; sha256: string },
    nonJson: boolean,
  ): void {
    const { size, ...body } = truncatedBody(f.size, f.head.subarray(0, TRUNCATED_HEAD_BYTES), f.sha256);
    this.commit({ type: "frame", dir, size, eol: f.eol, ...body, ...(nonJson ? { nonJson: true } : {}) });
  }

  stderr(text: string): void {
    if (this.stderrCapped) return;
    const bytes = Buffer.byteLength(text, "utf8");
    if (this.stderrBytes + bytes > this.maxStderrBytes) {
      this.stderrCapped = true;
      this.event("stderr-capped", { afterBytes: this.stderrBytes });
      return;
    }
    this.stderrBytes += bytes;
    this.commit({ type: "stderr", text });
  }

  event(ev: string, data: Record<string, unknown>): void {
    this.commit({ type: "event", ev, data });
  }

  exit(e: Omit<ExitRecord, "type" | "seq" | "t" | "sid">): void {
    this.commit({ type: "exit", ...e });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.lost > 0)
      this.warn(
        `effectgate: session log ${this.where()}: ${this.lost} record(s) were never written (${this.lastError})`,
      );
    this.file.close();
  }

  // --- writing -------------------------------------------------------------------------------

  private commit(fields: Fields, raw?: Buffer): void {
    if (this.closed) return;
    let t = "";
    let rec: Prepared | null = null;
    try {
      t = this.timestamp();
      rec = prepareRecord(this.sidValue, fields, raw);
      if (this.file.fd === null && !this.openPart(t)) return this.fail(rec, t);
      // Catching up after a failure on the same file: the gap (and the header, if this part never
      // got it) go in the same write, ahead of the record.
      let prefix = this.lost > 0 && !this.headerInPart ? (this.headerLine ?? "") : "";
      let catchUp = this.lost > 0 ? [prepareRecord(this.sidValue, this.gapEvent())] : [];
      const extra = Buffer.byteLength(prefix, "utf8") + (catchUp[0]?.bytes(this.seq + 1, t) ?? 0);
      if (this.needsRotation(extra + rec.bytes(this.seq + 1 + catchUp.length, t))) {
        this.continues = { from: this.file.name(), reason: "size" };
        this.file.close();
        if (!this.openPart(t)) return this.fail(rec, t);
        [prefix, catchUp] = ["", []]; // the new part's preamble carried them
      }
      if (!this.writeBatch(prefix, catchUp, rec, t)) this.reportFailure();
    } catch (err) {
      // Nothing above should throw; if it does, the relay must still go on.
      this.lastError = describeError(err);
      this.fail(rec ?? { type: fields.type, at: () => "", bytes: () => 0 }, t);
    }
  }

  /**
   * One write: `prefix` (an already numbered header copy), the writer's own catch-up events, then
   * the caller's record, each numbered with the next seq. A lost caller record still uses up its
   * seq, so the gap shows; catch-up events that fail are simply tried again later.
   */
  private writeBatch(prefix: string, catchUp: Prepared[], record: Prepared | null, t: string): boolean {
    const all = record ? [...catchUp, record] : catchUp;
    const lines = all.map((r, i) => r.at(this.seq + 1 + i, t));
    if (record?.type === "header") this.headerLine = lines[lines.length - 1] ?? null;
    const hadLoss = this.lost > 0;
    // Only the caller's record can carry raw bytes, and it is last.
    const text = Buffer.from(prefix + lines.join(""), "utf8");
    const raw = record?.raw;
    // A big frame's bytes are written where they are; a small one costs less as one write.
    const out = !raw
      ? text
      : raw.length > SEPARATE_WRITE_BYTES
        ? [text, raw, RAW_TAIL_BYTES]
        : Buffer.concat([text, raw, RAW_TAIL_BYTES]);
    if (!this.file.write(out)) {
      this.lastError = this.file.lastError;
      if (this.file.abandoned) this.continues ??= { from: this.file.name(), reason: "write-error" };
      if (record) this.loseOne(record, t);
      return false;
    }
    this.seq += lines.length;
    if (prefix !== "" || record?.type === "header") this.headerInPart = true;
    if (hadLoss) this.recovered(); // a gap event was part of this write
    return true;
  }

  private needsRotation(lineBytes: number): boolean {
    if (this.maxBytes <= 0 || this.file.size <= this.preambleBytes) return false;
    return this.file.size + lineBytes > this.maxBytes;
  }

  private gapEvent(): Fields {
    return { type: "event", ev: "log-gap", data: { lost: this.lost, error: this.lastError } };
  }

  /**
   * Create the next part (the first one at start) and write its preamble: a copy of the header
   * (same seq, byte for byte, so readers can drop it when joining parts), a pending `log-gap`
   * and the `rotated` event. Returns false when no usable file could be made.
   */
  private openPart(t: string): boolean {
    const previousPath = this.file.path;
    try {
      // Before anything is logged a name clash can still take a fresh sid; after that the sid
      // is fixed and only the part number moves on.
      this.file.openNext(() => this.base, this.seq === 0 ? () => this.newIdentity() : null);
    } catch (err) {
      this.lastError = describeError(err);
      return false;
    }
    this.preambleBytes = 0;
    this.headerInPart = false;
    // After a failure, log-gap is the first new record; the header above it is only a copy.
    const records: Prepared[] = this.lost > 0 ? [prepareRecord(this.sidValue, this.gapEvent())] : [];
    if (this.continues) {
      const { from, reason } = this.continues;
      records.push(
        prepareRecord(this.sidValue, {
          type: "event",
          ev: "rotated",
          data: { from, part: this.file.part, reason },
        }),
      );
    }
    const prefix = this.headerLine ?? "";
    if (prefix === "" && records.length === 0) return true;
    const continues = this.continues;
    if (!this.writeBatch(prefix, records, null, t)) {
      this.continues = continues;
      this.file.discardIfEmpty(previousPath);
      return false;
    }
    this.preambleBytes = this.file.size;
    this.continues = null;
    return true;
  }

  private newIdentity(): void {
    this.sidValue = newSid();
    this.base = sessionBase(this.safeNow(), this.sidValue, this.name);
  }

  private fail(rec: Prepared, t: string): void {
    this.loseOne(rec, t);
    this.reportFailure();
  }

  /** Count `rec` as lost under the next seq; a lost header is still kept for later parts. */
  private loseOne(rec: Prepared, t: string): void {
    this.seq += 1;
    this.lost += 1;
    if (rec.type === "header") this.headerLine = rec.at(this.seq, t || this.timestamp());
  }

  private reportFailure(): void {
    if (this.warnedFailure) return;
    this.warnedFailure = true;
    this.warn(
      `effectgate: cannot write session log ${this.where()}: ${this.lastError}; relaying continues, ` +
        `lost records are counted and logged as log-gap once writing works again`,
    );
  }

  private recovered(): void {
    this.warn(`effectgate: session log ${this.where()} is writable again; ${this.lost} record(s) were lost`);
    this.lost = 0;
    this.warnedFailure = false;
  }

  private where(): string {
    return this.file.path ?? join(this.opts.dir, partFileName(this.base, this.file.part + 1));
  }

  private warn(line: string): void {
    try {
      this.warnFn(line);
    } catch {
      /* a broken stderr must not stop the relay either */
    }
  }

  /** The injected clock, guarded: a clock that throws or gives an invalid date cannot stop us. */
  private safeNow(): Date {
    try {
      const d = this.now();
      if (!Number.isNaN(d.getTime())) return d;
    } catch {
      /* fall through to the system clock */
    }
    return new Date();
  }

  private timestamp(): string {
    return this.safeNow().toISOString();
  }
}
