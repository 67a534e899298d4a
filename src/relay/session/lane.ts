/**
 * Keeps frames of one direction in order when some of them need an asynchronous step (a
 * judgement, an observation). A step that finishes synchronously costs no async hop; once a
 * step returns a promise, every later step waits its turn behind it.
 */
export type Step = () => void | Promise<void>;

export class Lane {
  private readonly queue: Step[] = [];
  private running = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly onError: (err: unknown) => void,
    /** Told when the queue starts and stops holding work, to apply backpressure. */
    private readonly onBusy?: (busy: boolean) => void,
  ) {}

  /** Whether a step is still running (it returned a promise), so later ones wait. */
  get busy(): boolean {
    return this.running;
  }

  get queued(): number {
    return this.queue.length;
  }

  run(step: Step): void {
    if (this.running) {
      this.queue.push(step);
      return;
    }
    this.execute(step);
  }

  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private execute(first: Step): void {
    let step: Step | undefined = first;
    while (step) {
      let pending: void | Promise<void>;
      try {
        pending = step();
      } catch (err) {
        this.onError(err);
        pending = undefined;
      }
      if (pending instanceof Promise) {
        if (!this.running) {
          this.running = true;
          this.onBusy?.(true);
        }
        pending.catch(this.onError).finally(() => this.execute2());
        return;
      }
      step = this.running ? this.queue.shift() : undefined;
    }
    this.settle();
  }

  private execute2(): void {
    const next = this.queue.shift();
    if (next) this.execute(next);
    else this.settle();
  }

  private settle(): void {
    if (!this.running) return;
    if (this.queue.length > 0) return;
    this.running = false;
    this.onBusy?.(false);
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
