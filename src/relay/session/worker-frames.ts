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
import type { BuildGateOptions, BuiltGate } from "../gates/build-gates.js";
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
  /** A line effectgate wrote on the relay's thread (the answer to a failed start): logged with `by`. */
  | ["of", string]
  /** The server endpoint wrote these of its stdout lines itself (bridge-lines.ts). */
  | ["sb", number[]]
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
 * Starts the worker and returns at once: the relay need not wait for a second thread to load
 * the judges before it answers its first frame (docs/decisions/0130-observe-starts-without-waiting.md).
 * What the relay posts meanwhile waits in the worker's port. If the worker cannot start, or
 * reads the policy otherwise, that is said and the same reading is done on the relay's thread
 * with `build` (the gate from the choices the relay already read), from the first message on.
 */
export function startShadow(
  setup: ShadowSetup,
  say: (line: string) => void,
  build: () => Promise<BuiltGate>,
): Shadow {
  const worker = (): Worker =>
    new Worker(new URL("./shadow-worker.js", import.meta.url), { workerData: setup });
  return new Shadow(worker, setup.maxFrameBytes, say, { setup, build });
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
  /**
   * Until the worker says it is ready: a copy of every message posted to it, to be read on
   * this thread if it never is. Bounded like the backlog: past it, the sources wait for a sync.
   */
  private starting: ToWorker[] | null = null;
  /** Set once the worker failed to start: the messages go to this thread's reader instead. */
  private falling = false;
  private local: ((m: ToWorker) => void) | null = null;

  private worker: Worker | null = null;
  private readonly makeWorker: (() => Worker) | null;

  /**
   * `worker`, or how to start it: then it starts once the server's first chunk has been written
   * on to the client (the answer to `initialize`, as a rule), or the first time the relay waits
   * for it, so that a second thread's start does not take the CPU from that first answer.
   * `fallback`: the worker has not said it is ready yet, and if it never does, this thread
   * reads the session with it. Without one the worker counts as started.
   */
  constructor(
    worker: Worker | (() => Worker),
    maxFrameBytes: number,
    private readonly say: (line: string) => void,
    private readonly fallback?: { setup: ShadowSetup; build: () => Promise<BuiltGate> },
  ) {
    this.gauges = { client: new LineGauge(maxFrameBytes), server: new LineGauge(maxFrameBytes) };
    if (fallback) this.starting = [];
    this.makeWorker = typeof worker === "function" ? worker : null;
    if (typeof worker !== "function") this.listen(worker);
  }

  private listen(worker: Worker): void {
    this.worker = worker;
    worker.on("message", (m: FromWorker) => this.received(m));
    worker.on("error", (err) => this.failed(err.message));
    worker.on("exit", (code) => this.failed(`it exited with code ${code}`));
  }

  /** Starts the worker if it is not yet, and sends it what was posted before. */
  private started(): void {
    if (this.worker !== null || this.makeWorker === null || this.falling || this.local) return;
    let worker: Worker;
    try {
      worker = this.makeWorker();
    } catch (err) {
      return this.failed(err instanceof Error ? err.message : String(err));
    }
    this.listen(worker);
    for (const m of this.starting ?? []) worker.postMessage(m);
  }

  /** The session log as the relay sees it: every record goes to the worker, in order. */
  readonly log: RelayLog = {
    // Frames are the worker's, but for effectgate's own answer when the server cannot start.
    frame: (dir, bytes, _eol, _nonJson, _validJson, by) =>
      dir === "s2c" && by === "effectgate"
        ? this.post(["of", bytes.toString("utf8")])
        : this.died("a frame was logged on the relay's thread"),
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
      bridgeLines: (lines) => this.post(["sb", [...lines]]),
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
    await this.worker?.terminate();
  }

  private push(from: Side, chunk: Buffer): boolean {
    const gauge = this.gauges[from];
    if (gauge.overflow) return false;
    const ok = gauge.push(chunk);
    // The worker's splitter sees the same chunk and drops the line by the same rule.
    this.post([from === "client" ? "c" : "s", chunk]);
    if (from === "server") this.started(); // the relay has written this chunk on already
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
      this.started();
    });
  }

  private post(m: ToWorker): void {
    if (this.local) return this.local(m);
    if (this.dead !== null) return;
    if (this.starting) this.starting.push(m[0] === "c" || m[0] === "s" ? [m[0], Buffer.from(m[1])] : m);
    if (!this.falling) this.worker?.postMessage(m);
  }

  /** The worker is gone or could not start: before it was ready, its work moves to this thread. */
  private failed(why: string): void {
    if (this.falling) return; // its exit after the failure, or after terminate()
    if (this.starting === null || !this.fallback) return this.died(why);
    this.falling = true;
    this.say(`effectgate: the shadow worker did not start (${why}); checking on the relay's own thread`);
    void this.worker?.terminate();
    const { setup, build } = this.fallback;
    void import("./shadow-session.js")
      .then(({ openShadowSession }) => openShadowSession(setup, build, (m) => this.received(m)))
      .then(
        (read) => this.readHere(read),
        (err: unknown) => this.readHere(err instanceof Error ? err.message : String(err)),
      );
  }

  /** Reads on this thread what the worker was sent, then everything after it. */
  private readHere(read: ((m: ToWorker) => void) | string): void {
    const kept = this.starting ?? [];
    this.starting = null;
    if (typeof read === "string") return this.died(read);
    this.local = read;
    for (const m of kept) read(m);
  }

  private received(m: FromWorker): void {
    switch (m[0]) {
      case "say":
        return this.framesIo?.announce(m[1]);
      case "warn":
        return this.say(m[1]);
      case "own":
        return this.own?.write(Buffer.from(m[1].buffer, m[1].byteOffset, m[1].byteLength));
      case "ready":
        this.starting = null;
        return;
      case "fatal":
        return this.failed(m[1]);
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
