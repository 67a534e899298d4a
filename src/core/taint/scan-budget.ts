/**
 * How much text the content scan reads: a module of its own, with no imports, because the
 * relay's frame reader needs these numbers on every start and the scanner's modules bring the
 * effect extractor and the command catalogue with them (about 40 modules the kill switch and
 * the relay's own thread at observe never run; decision 0122).
 */

/** Characters per window of text scanned, and per layer revealed beneath it. */
export const MAX_TEXT = 256 * 1024;
/** Text scanned per response: MAX_TEXT-sized windows, at most this many. Beyond it, not scanned. */
export const MAX_WINDOWS = 16;
/** Characters of a response's string text that the scan reads at most. */
export const SCANNED_CHARS = MAX_WINDOWS * MAX_TEXT;
