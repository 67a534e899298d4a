/**
 * Backpressure plumbing. A source stream is paused while any reason to wait exists (a full
 * destination, a held frame) and resumed when the last reason goes away.
 */
import type { Readable, Writable } from "node:stream";

/** What the relay's sides need of a source: a way to pause it (Flow, or nothing in the worker). */
export interface Holdable {
  hold(): void;
  release(): void;
}

/** What the relay's sides need of a destination (Outbound, or nothing in the worker). */
export interface ByteSink {
  write(bytes: Buffer): void;
}

export class Flow implements Holdable {
  private reasons = 0;
  constructor(private readonly source: Readable) {}

  hold(): void {
    if (this.reasons++ === 0) this.source.pause();
  }

  release(): void {
    if (this.reasons === 0) return;
    if (--this.reasons === 0) this.source.resume();
  }
}

/**
 * Writes whole frames to a destination. When `write()` returns false the source feeding it is
 * held until `drain`. After the destination fails or closes, writes are dropped (and counted)
 * instead of throwing, so a vanished peer ends the session instead of crashing it.
 */
export class Outbound implements ByteSink {
  private waiting = false;
  private broken = false;
  dropped = 0;

  constructor(
    private readonly dest: Writable,
    private readonly flow: Flow | undefined,
    private readonly onBroken: (err: Error | undefined) => void,
  ) {
    dest.on("error", (err: Error) => this.fail(err));
    dest.on("close", () => this.fail(undefined));
  }

  get closed(): boolean {
    return this.broken;
  }

  write(bytes: Buffer | string): void {
    if (this.broken || this.dest.writableEnded) {
      this.dropped++;
      return;
    }
    if (this.dest.write(bytes) || this.waiting) return;
    this.waiting = true;
    this.flow?.hold();
    this.dest.once("drain", () => this.unblock());
  }

  /** Resolves once the destination has taken everything written so far (without ending it). */
  drained(): Promise<void> {
    if (this.broken || !this.dest.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => resolve();
      this.dest.once("drain", done);
      this.dest.once("close", done);
      this.dest.once("error", done);
    });
  }

  /** Ends the destination and resolves once everything written has been handed over. */
  end(): Promise<void> {
    if (this.broken || this.dest.writableFinished) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => resolve();
      this.dest.once("finish", done);
      this.dest.once("close", done);
      this.dest.once("error", done);
      if (!this.dest.writableEnded) this.dest.end();
    });
  }

  private unblock(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.flow?.release();
  }

  private fail(err: Error | undefined): void {
    if (this.broken) return;
    this.broken = true;
    this.unblock();
    this.onBroken(err);
  }
}
