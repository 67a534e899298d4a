/**
 * Decoded base64 counts as text only when it is mostly printable. Long runs in tool output are
 * mostly binary (images, archives), and decoding bytes that are not valid UTF-8 costs about 10 ms
 * per MiB, so a run is decoded piece by piece, in pieces that double in size, and given up as
 * soon as even an all-printable rest could not lift the share above the bar.
 */

/**
 * The share of printable characters (code points: an emoji is one, though two UTF-16 units)
 * that decoded text must exceed.
 */
const PRINTABLE_SHARE = 0.9;

/** The first piece; small runs are decoded in one go. */
const FIRST_PIECE_BYTES = 4096;
/**
 * Pieces double up to this size. Binary is given up after about a sixth of a run; pieces that
 * went on doubling decoded about a third of it first (a 4 MiB answer of one repeated letter).
 */
const LARGEST_PIECE_BYTES = 16384;

/** Tab, line feed, carriage return, and everything from space up except DEL and U+FFFD. */
function isPrintableCodePoint(c: number): boolean {
  return c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 0xfffd && c !== 127);
}

/**
 * `bytes` as UTF-8 text when more than PRINTABLE_SHARE of its characters are printable (an empty
 * text is not), else undefined. The same answer as decoding the whole run and counting.
 */
export function decodeIfText(bytes: Buffer): string | undefined {
  const total = bytes.length;
  const pieces: string[] = [];
  let ok = 0;
  let chars = 0;
  let at = 0;
  let size = FIRST_PIECE_BYTES;
  while (at < total) {
    // End each piece just after an ASCII byte: a UTF-8 decoder finishes (or replaces) any
    // unfinished sequence there and starts afresh, so the pieces decode to the whole text.
    let end = Math.min(total, at + size);
    while (end < total && (bytes[end - 1] as number) >= 0x80) end++;
    const piece = bytes.subarray(at, end).toString("utf8");
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      chars++;
      // A surrogate pair is one character, from U+10000 up: printable. (UTF-8 decoding never
      // yields a lone surrogate.) charCodeAt is several times faster here than a for…of.
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < piece.length) {
        const d = piece.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          ok++;
          continue;
        }
      }
      if (isPrintableCodePoint(c)) ok++;
    }
    pieces.push(piece);
    at = end;
    size = Math.min(2 * size, LARGEST_PIECE_BYTES);
    // The rest is at most one character per byte, and at best all printable.
    const rest = total - at;
    if (rest > 0 && (ok + rest) / (chars + rest) <= PRINTABLE_SHARE) return undefined;
  }
  return ok / chars > PRINTABLE_SHARE ? pieces.join("") : undefined;
}
