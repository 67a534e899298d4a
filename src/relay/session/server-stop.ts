// Stopping the server: the signals effectgate sends, their deadlines, its leftovers and its pipes.
import { GRACE_AFTER_TERM_MS } from "./constants.js";
import type { ServerEndpoint } from "./endpoint.js";
import type { RelayLog } from "./types.js";

export class ServerStop {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Set once effectgate itself starts stopping the server (client gone, signal, oversize line). */
  stopping = false;
  /** Signals effectgate sent the server, so an exit by one of them is not reported as a crash. */
  readonly sentSignals = new Set<NodeJS.Signals>();

  constructor(
    private readonly child: ServerEndpoint,
    private readonly log: RelayLog,
    /** Whether the server has exited: then nothing is sent any more. */
    private readonly exited: () => boolean,
  ) {}

  kill(sig: NodeJS.Signals): void {
    this.sentSignals.add(sig);
    this.child.signal(sig);
  }

  /** Processes the server started and left running in its group are stopped too, and logged. */
  stopLeftovers(): Promise<void> {
    return this.child.stopLeftovers(GRACE_AFTER_TERM_MS, (signal) =>
      this.log.event("kill", { signal, group: "left running after the server exited" }),
    );
  }

  /** After `wait` ms send `sig`; a SIGTERM is followed by SIGKILL after GRACE_AFTER_TERM_MS. */
  escalate(wait: number, sig: NodeJS.Signals): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.exited()) return;
      this.log.event("kill", { signal: sig, afterMs: wait });
      this.kill(sig);
      if (sig === "SIGTERM") this.escalate(GRACE_AFTER_TERM_MS, "SIGKILL");
    }, wait);
    this.timers.add(timer);
  }

  /** The server exited: no deadline is left to keep. */
  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/**
 * Flush: resolves once the server's pipes are drained. A grandchild may hold them open; do not
 * wait for it forever.
 */
export function pipesDrained(child: ServerEndpoint): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.stdout.readableEnded && child.stderr.readableEnded) return resolve();
    const timer = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      resolve();
    }, GRACE_AFTER_TERM_MS);
    child.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
