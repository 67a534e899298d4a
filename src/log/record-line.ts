/**
 * How one session-log record becomes one line: its own fields serialised once, then numbered
 * (type, seq, t, sid in front) at write time. Frames the relay parsed carry their bytes as raw
 * JSON, last in the line (docs/decisions/0049-log-frames-as-raw-json.md).
 */
import { isUtf8 } from "node:buffer";
import { describeError } from "./part-file.js";

export type Fields = Record<string, unknown> & { type: string };

/**
 * A record serialised once; only its seq and time are filled in per write. A frame kept as raw
 * JSON has `raw`: the line is then `at(seq, t)` + raw + RAW_TAIL.
 */
export type Prepared = {
  type: string;
  at: (seq: number, t: string) => string;
  bytes: (seq: number, t: string) => number;
  raw?: Buffer;
};

export const RAW_KEY = ',"json":';
export const RAW_TAIL = "}\n";

/**
 * Whether a frame that parsed as JSON can sit in a log line as it is: whole UTF-8 (so the line
 * reads back to the same bytes) and no CR (JSON allows it as whitespace, but a reader that splits
 * lines on CR as well as LF would tear the record). A frame never holds an LF.
 */
export function embeddable(bytes: Buffer): boolean {
  return bytes.indexOf(0x0d) === -1 && isUtf8(bytes);
}

/**
 * Serialise a record's own fields once (frames can be 16 MiB); `at` adds type, seq, t and sid in
 * front. Data JSON cannot hold (cycles, BigInt) becomes a `log-error` event instead.
 */
export function prepareRecord(sid: string, fields: Fields, raw?: Buffer): Prepared {
  const rest: Record<string, unknown> = { ...fields };
  for (const k of ["type", "seq", "t", "sid"]) delete rest[k];
  let type = fields.type;
  let json: string;
  try {
    json = JSON.stringify(rest);
  } catch (err) {
    const data = {
      record: fields.type,
      ...(fields.type === "event" ? { ev: fields.ev } : {}),
      error: describeError(err),
    };
    type = "event";
    json = JSON.stringify({ ev: "log-error", data });
  }
  let tail = json === "{}" ? "}\n" : `,${json.slice(1)}\n`;
  let extraBytes = 0;
  if (raw !== undefined && type === "frame") {
    // `json` is always the last member, so a reader finds the frame's bytes between RAW_KEY
    // and the closing brace (src/log/reader.ts).
    tail = `${tail.slice(0, -2)}${RAW_KEY}`;
    extraBytes = raw.length + RAW_TAIL.length;
  }
  const tailBytes = Buffer.byteLength(tail, "utf8") + extraBytes;
  const head = (seq: number, t: string) => JSON.stringify({ type, seq, t, sid }).slice(0, -1);
  return {
    type,
    at: (seq, t) => `${head(seq, t)}${tail}`,
    bytes: (seq, t) => Buffer.byteLength(head(seq, t), "utf8") + tailBytes,
    ...(extraBytes > 0 && raw !== undefined ? { raw } : {}),
  };
}
