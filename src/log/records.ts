import { z } from "zod";

/**
 * The session log's record shapes: the contract between the relay (writer), `replay`
 * and `eval` (readers), and docs/log-format.md. Every record the writer emits is validated
 * against `LogRecord` in tests. One JSON object per line.
 */

/** Who wrote a frame that effectgate logs as its own: the relay, or the `--url` bridge. */
const FRAME_AUTHORS = ["effectgate", "bridge"] as const;
export type FrameAuthor = (typeof FRAME_AUTHORS)[number];

const base = {
  /** 1, 2, 3 … per session; a gap means records were lost (see the `log-gap` event). */
  seq: z.number().int().min(1),
  /** ISO 8601 UTC with milliseconds. */
  t: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  /** Session id: unique per run, also in the file name. */
  sid: z.string().min(1),
};

export const HeaderRecord = z.strictObject({
  ...base,
  type: z.literal("header"),
  effectgate: z.string(),
  argv: z.array(z.string()),
  server: z.array(z.string()),
  name: z.string().nullable(),
  cwd: z.string(),
  pid: z.number().int(),
  platform: z.string(),
  level: z.enum(["observe", "enforce", "strict"]),
  /** Where the level came from; `off` when EFFECTGATE_OFF disabled every check. */
  from: z.enum(["flag", "policy", "default", "off"]),
  /** The policy in force (null when off): its name or path and the SHA-256 of its bytes. */
  policy: z.strictObject({ source: z.string(), sha256: z.string() }).nullable(),
  lock: z.string().nullable(),
  /**
   * This log marks the frames effectgate wrote itself (`by` on a frame record). Absent in logs
   * of earlier versions: readers then tell them apart by matching answers to refusals.
   */
  marksOwn: z.literal(true).optional(),
  /**
   * How a question at strict could be put in this relay, whatever level it ran at (decision
   * 0133): `channels` in the order tried (the chat ones only if the client takes them), `dialog`
   * the desktop tool found, `noDialog` why dialogs are on but none can be shown. Absent with
   * checks off, and in logs of earlier versions: readers then take it as no dialog.
   */
  ask: z
    .strictObject({
      // The names of src/core/gate/ask-channel.ts's ASK_CHANNELS (a test keeps them equal).
      channels: z.array(z.enum(["elicitation", "input_required", "dialog", "out of band"])),
      dialog: z.enum(["osascript", "zenity", "kdialog", "powershell"]).optional(),
      noDialog: z.string().optional(),
    })
    .optional(),
});

export const FrameRecord = z.strictObject({
  ...base,
  type: z.literal("frame"),
  /** c2s: client to server; s2c: server to client. */
  dir: z.enum(["c2s", "s2c"]),
  /** Byte length of the frame without its line terminator. */
  size: z.number().int().min(0),
  /** The line terminator as received: "\n", "\r\n" or "" (last frame without newline). */
  eol: z.enum(["\n", "\r\n", ""]),
  /** The frame's bytes as UTF-8 text, verbatim (absent when not valid UTF-8). */
  text: z.string().optional(),
  /**
   * The frame itself, as raw JSON: the usual form for a frame the relay parsed, written as the
   * frame's own bytes with no escaping, always as the record's last member. Readers that need the
   * exact bytes take the text between `,"json":` and the final `}` (src/log/reader.ts does).
   */
  json: z.unknown().optional(),
  /** The frame's bytes in base64 when they are not valid UTF-8. */
  base64: z.string().optional(),
  /** Present when the frame was larger than the log keeps whole: text/base64 hold its head. */
  truncated: z.literal(true).optional(),
  /** SHA-256 of the whole frame, present when truncated. */
  sha256: z.string().optional(),
  /** True when the frame is not valid JSON. */
  nonJson: z.literal(true).optional(),
  /**
   * Present when effectgate wrote this frame to the client itself: a refusal, an error answer,
   * a question, an answer to a held or cancelled call. `bridge`: the `--url` bridge wrote it in
   * the server's place (an error answer to a request it could not deliver); it may quote the
   * server's HTTP error, so it is read like a server answer (decision 0114). Absent on what the
   * client or server wrote.
   */
  by: z.enum(FRAME_AUTHORS).optional(),
});

export const StderrRecord = z.strictObject({
  ...base,
  type: z.literal("stderr"),
  text: z.string(),
});

/**
 * Events: decisions, taint, pins, handshakes, lifecycle. `ev` names what happened, `data` the
 * facts; the known names and their fields are listed in docs/log-format.md.
 */
export const EventRecord = z.strictObject({
  ...base,
  type: z.literal("event"),
  ev: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
});

export const ExitRecord = z.strictObject({
  ...base,
  type: z.literal("exit"),
  /** The server's exit code, or null when it ended by a signal. */
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** What effectgate itself exits with. */
  exitCode: z.number().int(),
  counts: z.record(z.string(), z.number().int().min(0)),
});

export const LogRecord = z.discriminatedUnion("type", [
  HeaderRecord,
  FrameRecord,
  StderrRecord,
  EventRecord,
  ExitRecord,
]);

export type HeaderRecord = z.infer<typeof HeaderRecord>;
export type FrameRecord = z.infer<typeof FrameRecord>;
export type StderrRecord = z.infer<typeof StderrRecord>;
export type EventRecord = z.infer<typeof EventRecord>;
export type ExitRecord = z.infer<typeof ExitRecord>;
export type LogRecord = z.infer<typeof LogRecord>;
