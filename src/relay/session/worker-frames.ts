/**
 * The relay's side of the shadow worker (docs/decisions/0050-observe-work-in-a-worker.md). When
 * nothing can be refused, the relay's thread only moves bytes: each chunk is written on, then
 * copied to a worker thread that splits, logs, judges and observes it (shadow-worker.ts). One
 * message channel carries chunks, log events and stderr lines in the order the relay saw them.
 *
 * The worker may fall behind (a 4 MiB answer to scan); once BACKLOG_BYTES or BACKLOG_MESSAGES
 * are in flight both sources are paused until it has caught up, so memory stays bounded.
 */
import { Worker } from "node:worker_threads";
import type { BuildGateOptions } from "../gates/build-gates.js";
import type { Level } from "../../core/types.js";
import { LineGauge } from "../../core/framing/line-gauge.js";
import type { HeaderRecord } from "../../log/records.js";
import type { Frames, Side } from "./frames.js";
import { OwnLines } from "./pass-through.js";
import type { FramesIo } from "./relay-options.js";
import { newStats, type RelayLog, type RelayStats } from "./types.js";

const BACKLOG_BYTES = 16 * 1024 * 1024;
const BACKLOG_MESSAGES = 1024;
/** What a message costs beyond its bytes, in the backlog's count. */
const MESSAGE_OVERHEAD = 256;

/** What the worker needs to rebuild the relay's gate and open the session log. */
export interface ShadowSetup {
  gate: BuildGateOptions;
  /** The level the relay decided on: the worker's own reading must agree. */
  level: Level;
  log: { dir: string; name: string | null };
  header: Omit<HeaderRecord, "type" | "seq" | "t" | "sid" | "level" | "from" | "policy" | "lock">;
  maxFrameBytes: number;
}

export type ToWorker =
  | ["c" | "s", Uint8Array]
  | ["ce" | "se" | "finish" | "close"]
  | ["ev", string, Record<string, unknown>]
  | ["x", string]
  | ["sync", number]
  | ["exit", Parameters<RelayLog["exit"]>[0]];

export type FromWorker =
  | ["ready"]
  | ["fatal", string]
  | ["say" | "warn", string]
  | ["own", Uint8Array]
  | ["synced", number]
  | ["finished", number | null, RelayStats]
  | ["closed"];

/**
 * Starts the worker and waits until its gate is built and its log is open. Resolves to null
 * (with the reason said) when it cannot start: the caller then does the work on its own thread.
 */
export async function startShadow(setup: ShadowSetup, say: (line: string) => void): Promise<Shadow | null> {
  const worker = new Worker(new URL("./shadow-worker.js", import.meta.url), { workerData: setup });
  const started = await new Promise<string | null>((resolve) => {
    const done = (why: string | null): void => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      resolve(why);
    };
    const onMessage = (m: FromWorker): void => {
      if (m[0] === "warn") say(m[1]);
      else if (m[0] === "ready") done(null);
      else if (m[0] === "fatal") done(m[1]);
    };
    const onError = (err: Error): void => done(err.message);
    // Gone without a word (an exit during start-up): never wait for it.
    const onExit = (code: number): void => done(`it exited with code ${code}`);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
  });
  if (started === null) return new Shadow(worker, setup.maxFrameBytes, say);
  await worker.terminate();
  say(`effectgate: the shadow worker did not start (${started}); checking on the relay's own thread`);
  return null;
}

export class Shadow {
  private dead: string | null = null;
  private readonly waiting = new Map<string, Array<(m: FromWorker) => void>>();
  private framesIo: FramesIo | undefined;
  private readonly gauges: Record<Side, LineGauge>;
  /** Lines the worker made up for the client (none at observe today; kept exact anyway). */
  private own: OwnLines | undefined;
  private inFlight = 0;
  private messages = 0;
  private holding = false;
  private syncs = 0;

  constructor(
    private readonly worker: Worker,
    maxFrameBytes: number,
    private readonly say: (line: string) => void,
  ) {
    this.gauges = { client: new LineGauge(maxFrameBytes), server: new LineGauge(maxFrameBytes) };
    worker.on("message", (m: FromWorker) => this.received(m));
    worker.on("error", (err) => this.died(err.message));
    worker.on("exit", (code) => this.died(`it exited with code ${code}`));
  }

  /** The session log as the relay sees it: every record goes to the worker, in order. */
  readonly log: RelayLog = {
    frame: () => this.died("a frame was logged on the relay's thread"),
    bigFrame: () => this.died("a frame was logged on the relay's thread"),
    stderr: (text) => this.post(["x", text]),
    event: (ev, data) => this.post(["ev", ev, data]),
    exit: (e) => this.post(["exit", e]),
  };

  /** For RelayOptions.frames. */
  readonly frames = (io: FramesIo): Frames => {
    this.framesIo = io;
    this.own = new OwnLines(this.gauges.server, io.toClient);
    return {
      push: (from, chunk) => this.push(from, chunk),
      end: (from) => this.post([from === "client" ? "ce" : "se"]),
      overflowed: (from) => this.gauges[from].overflow,
      afterServerChunk: () => this.own?.flush(),
      settled: () => this.sync(),
      cancelAsks: () => undefined, // no asks in pass-through
      finish: async () => {
        const m = await this.request(["finish"], "finished");
        if (m?.[0] === "finished") return { unanswered: m[1], stats: m[2] };
        return { unanswered: null, stats: newStats() };
      },
    };
  };

  /** After the exit record: resolves once the log is closed and the worker gone. */
  async close(): Promise<void> {
    if (this.dead === null) await this.request(["close"], "closed");
    this.dead ??= "closed";
    await this.worker.terminate();
  }

  private push(from: Side, chunk: Buffer): boolean {
    const gauge = this.gauges[from];
    if (gauge.overflow) return false;
    const ok = gauge.push(chunk);
    // The worker's splitter sees the same chunk and drops the line by the same rule.
    this.post([from === "client" ? "c" : "s", chunk]);
    this.inFlight += chunk.length + MESSAGE_OVERHEAD;
    if (!this.holding && (this.inFlight > BACKLOG_BYTES || ++this.messages > BACKLOG_MESSAGES))
      this.holdUntilCaughtUp();
    return ok;
  }

  private holdUntilCaughtUp(): void {
    const io = this.framesIo;
    if (!io) return;
    this.holding = true;
    io.clientFlow.hold();
    io.serverFlow.hold();
    void this.sync().then(() => {
      this.holding = false;
      this.inFlight = 0;
      this.messages = 0;
      io.clientFlow.release();
      io.serverFlow.release();
    });
  }

  private sync(): Promise<void> {
    return this.request(["sync", ++this.syncs], "synced").then(() => undefined);
  }

  /** Sends a message that the worker answers with `reply`; resolves at once if it is gone. */
  private request(m: ToWorker, reply: string): Promise<FromWorker | null> {
    if (this.dead !== null) return Promise.resolve(null);
    return new Promise((resolve) => {
      const list = this.waiting.get(reply) ?? [];
      list.push(resolve);
      this.waiting.set(reply, list);
      this.post(m);
    });
  }

  private post(m: ToWorker): void {
    if (this.dead === null) this.worker.postMessage(m);
  }

  private received(m: FromWorker): void {
    switch (m[0]) {
      case "say":
        return this.framesIo?.announce(m[1]);
      case "warn":
        return this.say(m[1]);
      case "own":
        return this.own?.write(Buffer.from(m[1].buffer, m[1].byteOffset, m[1].byteLength));
      default: {
        // Replies come back in the order their requests were sent.
        const resolve = this.waiting.get(m[0])?.shift();
        resolve?.(m);
      }
    }
  }

  /** The relay goes on without a log; everyone waiting on the worker is let go. */
  private died(why: string): void {
    if (this.dead !== null) return;
    this.dead = why;
    this.say(
      `effectgate: the shadow worker stopped (${why}); relaying goes on, but this session is no longer logged or checked`,
    );
    for (const list of this.waiting.values()) for (const resolve of list.splice(0)) resolve(null as never);
  }
}
