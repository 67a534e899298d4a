/**
 * How long the unfinished line of a stream is, by the same rule as LineSplitter, without keeping
 * its bytes. The relay's main thread uses it when the frames themselves are split elsewhere (the
 * shadow worker): it still has to know when a line passed the size limit, and whether a server
 * frame is half-way to the client.
 */
const LF = 0x0a;

export class LineGauge {
  private pending = 0;
  private overflowed = false;

  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes of a line that has not ended yet. */
  get buffered(): number {
    return this.pending;
  }

  /** True once a line grew past the limit; stays true, as LineSplitter's does. */
  get overflow(): boolean {
    return this.overflowed;
  }

  /** Same answer as LineSplitter.push for the same chunk: false once a line is over the limit. */
  push(chunk: Buffer): boolean {
    if (this.overflowed) return false;
    const last = chunk.lastIndexOf(LF);
    this.pending = last === -1 ? this.pending + chunk.length : chunk.length - last - 1;
    if (this.pending > this.maxFrameBytes) {
      this.overflowed = true;
      this.pending = 0;
      return false;
    }
    return true;
  }
}
