import { createHash } from "node:crypto";

/**
 * How a frame's bytes are kept in a `frame` record: verbatim UTF-8 text when the bytes are valid
 * UTF-8, base64 otherwise; frames over the size limit keep only their head plus the SHA-256 of
 * the whole frame (docs/decisions/0006-log-frame-truncation.md).
 */

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
/**
 * What a frame over the limit keeps of its head: enough to show the id, method and the start of
 * the params or result, without a copy of megabytes (docs/decisions/0049-log-frames-as-raw-json.md).
 */
export const TRUNCATED_HEAD_BYTES = 64 * 1024;

// fatal: invalid sequences throw instead of turning into U+FFFD, so "decodes" means "is UTF-8".
// ignoreBOM: keep a leading U+FEFF in the text; the default would silently drop it and the
// record would no longer hold the frame's bytes verbatim.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export interface FrameBody {
  size: number;
  text?: string;
  base64?: string;
  truncated?: true;
  sha256?: string;
}

export function frameBody(bytes: Buffer, maxFrameBytes: number = DEFAULT_MAX_FRAME_BYTES): FrameBody {
  const size = bytes.length;
  if (size <= maxFrameBytes) {
    const text = decodeUtf8(bytes);
    return text === null ? { size, base64: bytes.toString("base64") } : { size, text };
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const head = bytes.subarray(0, Math.max(0, Math.min(maxFrameBytes, TRUNCATED_HEAD_BYTES)));
  return truncatedBody(size, head, sha256);
}

/** The record body of a frame kept only as its head and the hash of the whole. */
export function truncatedBody(size: number, head: Buffer, sha256: string): FrameBody {
  // A cut can land inside a multi-byte character. Backing off up to three bytes finds the last
  // whole character, so a text frame stays text (the head is then a few bytes shorter).
  for (let drop = 0; drop <= 3 && drop <= head.length; drop++) {
    const text = decodeUtf8(head.subarray(0, head.length - drop));
    if (text !== null) return { size, text, truncated: true, sha256 };
  }
  return { size, base64: head.toString("base64"), truncated: true, sha256 };
}
