/**
 * How often a desktop dialog may ask the user (docs/decisions/0127-dialog-flood-limit.md). A
 * model can make calls faster than a person can read questions; a person shown question after
 * question learns to click yes. So a dialog opens only when none is open and fewer than
 * `perWindow` opened in the last `windowMs`; past that, every question is refused (never
 * approved) until `quietMs` have passed. The caller passes the clock: this file reads none.
 */

export interface DialogLimits {
  /** Dialogs that may open within one window. */
  perWindow: number;
  windowMs: number;
  /** How long every question is refused once the limit was reached. */
  quietMs: number;
}

const DIALOG_LIMITS: DialogLimits = { perWindow: 5, windowMs: 60_000, quietMs: 5 * 60_000 };

export type DialogTurn = { ok: true } | { ok: false; why: string };

export class DialogLimiter {
  /** When each dialog of the current window opened. */
  private opened: number[] = [];
  private isOpen = false;
  private quietUntil = Number.NEGATIVE_INFINITY;

  constructor(private readonly limits: DialogLimits = DIALOG_LIMITS) {}

  /** May a dialog open at `now`? A yes counts it as open until `close`. */
  take(now: number): DialogTurn {
    const l = this.limits;
    if (this.isOpen) return { ok: false, why: "another desktop question was open" };
    if (now < this.quietUntil)
      return {
        ok: false,
        why: `too many questions: no desktop question for ${seconds(this.quietUntil - now)} s`,
      };
    this.opened = this.opened.filter((t) => now - t < l.windowMs);
    if (this.opened.length >= l.perWindow) {
      this.quietUntil = now + l.quietMs;
      return {
        ok: false,
        why: `too many questions: more than ${l.perWindow} within ${seconds(l.windowMs)} s, none for ${seconds(l.quietMs)} s`,
      };
    }
    this.opened.push(now);
    this.isOpen = true;
    return { ok: true };
  }

  /** The open dialog was answered, timed out or failed. */
  close(): void {
    this.isOpen = false;
  }
}

const seconds = (ms: number): number => Math.ceil(ms / 1000);
