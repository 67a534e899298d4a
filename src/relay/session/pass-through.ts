/**
 * How big lines are read (at every level since docs/decisions/0144), and the pieces of the relay
 * that exist only in pass-through (docs/decisions/0048): a hold on both sources while judging
 * and logging fall behind, and effectgate's own lines waiting for the server's half-sent frame
 * to end.
 */
import type { BigLineOptions } from "../../core/framing/big-line.js";
import { BUDGET } from "../../core/effects/budget.js";
import { SCANNED_CHARS } from "../../core/taint/scan-budget.js";
import { DEFAULT_MAX_FRAME_BYTES, TRUNCATED_HEAD_BYTES } from "../../log/frame-text.js";
import type { ByteSink, Holdable } from "./flow.js";
import type { Lane } from "./lane.js";

/**
 * A line past the log's whole-frame limit is decoded as it arrives and never joined: the log
 * keeps only a head and a hash of such a frame anyway, and the judge needs text. In pass-through
 * its bytes are let go; a relay that holds it keeps them as the pieces they came in, to write on
 * once it is judged (docs/decisions/0144-a-held-big-line-is-read-cut.md). Of each string
 * in it one character more than the judge's budget is kept: a call with a cut string is still
 * "too large to judge", and the content scan reads less than that of a whole answer
 * (docs/decisions/0052-cut-long-strings-of-huge-frames.md). Once as many characters of text
 * are kept as the content scan reads, deep arrays and objects keep no more elements, so that
 * millions of small ones are not all built (docs/decisions/0053-cut-the-structure-of-huge-frames.md).
 */
export const BIG_LINES = {
  after: DEFAULT_MAX_FRAME_BYTES,
  headBytes: TRUNCATED_HEAD_BYTES,
  keepChars: BUDGET.maxChars + 1,
  keepText: SCANNED_CHARS,
} as const;

/**
 * Client lines. A call's `arguments` keep every member, so a member after a long string (a
 * `path` after a 17 MiB `content`) is still judged; and the whole text is tested for a call as
 * it streams past, so a line that does not parse is held for a call when the part that says so
 * was cut away (docs/decisions/0066-observe-reads-what-enforce-reads.md).
 */
export const BIG_CLIENT_LINES: BigLineOptions & { after: number } = {
  ...BIG_LINES,
  structure: { keepLevels: 3 },
  watchCalls: true,
};

/**
 * The scan's windows can take a line break more each than SCANNED_CHARS counts: a margin, so
 * the cut never comes before the scan's last characters.
 */
const SCAN_SLACK = 1024;

/**
 * Server lines. Deep structure is cut once a message holds as much text as the content scan
 * reads, counted as the scan counts it (string values of `result` and `error`), so the scan reads
 * at observe what it reads at enforce; or, to bound memory, once twice that much other text is
 * kept (keys, numbers, other members), and then the `frame-cut` says the cut came first.
 */
export const BIG_SERVER_LINES: BigLineOptions & { after: number } = {
  ...BIG_LINES,
  keepText: 2 * SCANNED_CHARS,
  structure: { scan: { chars: SCANNED_CHARS + SCAN_SLACK } },
};

/** Frames waiting to be recorded before both sources are paused. */
const MAX_UNRECORDED_FRAMES = 256;

/** effectgate's own lines: never written in the middle of a server frame already half-sent. */
export class OwnLines {
  private waiting: Buffer[] = [];

  constructor(
    /** The server's output so far; a partial line there means a frame is half-way to the client. */
    private readonly s2c: { readonly buffered: number },
    private readonly toClient: ByteSink,
  ) {}

  write(bytes: Buffer): void {
    if (this.s2c.buffered > 0) this.waiting.push(bytes);
    else this.toClient.write(bytes);
  }

  /** After each server chunk: lines kept back go out once the frame has ended. */
  flush(): void {
    if (this.waiting.length === 0 || this.s2c.buffered > 0) return;
    const lines = this.waiting;
    this.waiting = [];
    for (const line of lines) this.toClient.write(line);
  }
}

/** When judging and logging fall behind (a slow disk, an async hook), stop reading both sides. */
export class BacklogHold {
  private held = false;

  constructor(
    private readonly sources: readonly Holdable[],
    private readonly lane: Lane,
  ) {}

  check(): void {
    if (this.held || this.lane.queued <= MAX_UNRECORDED_FRAMES) return;
    this.held = true;
    for (const f of this.sources) f.hold();
    void this.lane.whenIdle().then(() => {
      this.held = false;
      for (const f of this.sources) f.release();
    });
  }
}
