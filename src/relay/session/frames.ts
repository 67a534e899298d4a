/**
 * Where the relay's bytes become frames: split into lines, logged, judged and observed. The
 * session (relay.ts) owns the processes and streams; a Frames owns everything that reads frames.
 * Two kinds exist: LocalFrames does the work on the relay's own thread, and WorkerFrames
 * (worker-frames.ts) hands the bytes to a shadow worker when nothing can be refused
 * (docs/decisions/0050-observe-work-in-a-worker.md).
 */
import type { OutOfBand } from "../client/ask-store.js";
import type { BigFrame } from "../../core/framing/big-line.js";
import type { Gate } from "../../core/gate/gate.js";
import { LineSplitter, type Frame } from "../../core/framing/line-splitter.js";
import { Asker } from "../client/ask.js";
import { BridgeLines } from "./bridge-lines.js";
import { ClientSide } from "../client/client-side.js";
import { Correlator } from "../server/correlate.js";
import type { ByteSink, Holdable } from "./flow.js";
import { SessionFacts } from "./handshake.js";
import { Lane } from "./lane.js";
import { BacklogHold, BIG_CLIENT_LINES, BIG_SERVER_LINES, OwnLines } from "./pass-through.js";
import { ServerSide } from "../server/server-side.js";
import type { RelayLog, RelayStats } from "./types.js";

export type Side = "client" | "server";

export interface Frames {
  /**
   * Bytes read from one side. In pass-through they have already been written on. Returns false
   * when this chunk made a line longer than the limit; that side's later bytes are dropped.
   */
  push(from: Side, chunk: Buffer): boolean;
  /** The server endpoint wrote its stdout lines at these positions itself (bridge-lines.ts). */
  bridgeLines(lines: readonly number[]): void;
  /** That side's stream ended: a last line without a newline is still a frame. */
  end(from: Side): void;
  /** Whether a line from that side passed the limit (pass-through stops writing it on). */
  overflowed(from: Side): boolean;
  /** After each server chunk in pass-through: effectgate's own lines may go out between frames. */
  afterServerChunk(): void;
  /** Resolves once every frame pushed from that side so far has been dealt with. */
  settled(from: Side): Promise<void>;
  /** Ends the asks effectgate has open with the client (the client is gone or the server is). */
  cancelAsks(): void;
  /**
   * At the end, once the server's output has ended: waits for the last frames, then gives the
   * calls still unanswered (null when requests are not tracked) and the counts.
   */
  finish(): Promise<{ unanswered: number | null; stats: RelayStats }>;
}

export interface LocalFramesDeps {
  gate: Gate | undefined;
  log: RelayLog;
  maxFrameBytes: number;
  /** Bytes were written on as they arrived: frames are only recorded, judged and observed. */
  passThrough: boolean;
  toServer: ByteSink;
  toClient: ByteSink;
  clientFlow: Holdable;
  serverFlow: Holdable;
  /** Counts; shared with the session, which adds the stderr lines. */
  stats: RelayStats;
  announce: (line: string) => void;
  onError: (err: unknown) => void;
  /**
   * Where effectgate's own lines go, when not to `toClient` (the shadow worker hands them to the
   * relay's thread). Pass-through holds them back while a server frame is half-way to the client.
   */
  ownLine?: (bytes: Buffer) => void;
  /** Pause both sources while frames wait to be recorded (not in the worker: the relay does it). */
  holdBacklog?: boolean;
  /** Where questions wait when the client cannot be asked (decision 0105). */
  outOfBand?: OutOfBand;
}

export class LocalFrames implements Frames {
  private readonly c2s: LineSplitter;
  private readonly s2c: LineSplitter;
  private readonly asker: Asker;
  private readonly correlator = new Correlator();
  private readonly clientSide: ClientSide;
  private readonly serverSide: ServerSide;
  /** Pass-through only: own lines wait for a frame boundary; a backlog pauses both sources. */
  private readonly own: OwnLines | undefined;
  private readonly backlog: BacklogHold | undefined;
  private readonly toClientSide = (f: Frame | BigFrame): void => {
    this.clientSide.onFrame(f);
    // In pass-through, answers that came while this line was crossing are read after it.
    if (this.d.passThrough) this.serverSide.afterClientFrame();
  };
  private readonly bridge = new BridgeLines();
  private readonly toServerSide = (f: Frame | BigFrame): void =>
    this.serverSide.onFrame(f, this.bridge.take() ? "bridge" : undefined);
  constructor(private readonly d: LocalFramesDeps) {
    const { log, stats, passThrough } = d;
    const record = (ev: string, data: Record<string, unknown>): void => log.event(ev, data);
    // A big line is read cut at every level, by one reader with one set of options; a relay that
    // holds lines until they are judged also keeps the pieces, to write them on (decision 0144).
    const held = passThrough ? {} : { keepBytes: true };
    this.c2s = new LineSplitter(d.maxFrameBytes, { ...BIG_CLIENT_LINES, ...held });
    this.s2c = new LineSplitter(d.maxFrameBytes, { ...BIG_SERVER_LINES, ...held });
    const facts = new SessionFacts(record);
    const shared = passThrough ? new Lane(d.onError) : undefined;
    this.own = shared && !d.ownLine ? new OwnLines(this.s2c, d.toClient) : undefined;
    this.backlog =
      shared && d.holdBacklog ? new BacklogHold([d.clientFlow, d.serverFlow], shared) : undefined;
    const ownLine =
      d.ownLine ?? ((bytes: Buffer) => (this.own ? this.own.write(bytes) : d.toClient.write(bytes)));
    const toClientLine = (line: string): void => {
      stats.originated++;
      const bytes = Buffer.from(`${line}\n`);
      log.frame("s2c", bytes.subarray(0, bytes.length - 1), "\n", false, true, "effectgate");
      ownLine(bytes);
    };
    this.asker = new Asker(toClientLine, record);
    const common = { gate: d.gate, log, correlator: this.correlator, facts, stats, announce: d.announce };
    this.clientSide = new ClientSide({
      ...common,
      toServer: d.toServer,
      toClient: toClientLine,
      asker: this.asker,
      flow: d.clientFlow,
      onError: d.onError,
      passThrough,
      ...(shared ? { lane: shared } : {}),
      ...(d.outOfBand ? { outOfBand: d.outOfBand } : {}),
    });
    this.serverSide = new ServerSide({
      ...common,
      toClient: d.toClient,
      onError: d.onError,
      onBusy: (busy) => (busy ? d.serverFlow.hold() : d.serverFlow.release()),
      passThrough,
      ...(shared
        ? { lane: shared, clientCrossing: () => this.c2s.buffered > 0 }
        : { clientLane: this.clientSide.lane }),
    });
  }

  push(from: Side, chunk: Buffer): boolean {
    const ok =
      from === "client"
        ? this.c2s.push(chunk, this.toClientSide, this.toClientSide)
        : this.s2c.push(chunk, this.toServerSide, this.toServerSide);
    this.backlog?.check();
    return ok;
  }

  bridgeLines(lines: readonly number[]): void {
    this.bridge.add(lines);
  }

  end(from: Side): void {
    if (from === "client") this.c2s.end(this.toClientSide, this.toClientSide);
    else {
      this.s2c.end(this.toServerSide, this.toServerSide);
      this.own?.flush();
    }
  }

  overflowed(from: Side): boolean {
    return (from === "client" ? this.c2s : this.s2c).overflow;
  }

  afterServerChunk(): void {
    this.own?.flush();
  }

  settled(from: Side): Promise<void> {
    return (from === "client" ? this.clientSide : this.serverSide).lane.whenIdle();
  }

  cancelAsks(): void {
    this.asker.cancelAll();
  }

  async finish(): Promise<{ unanswered: number | null; stats: RelayStats }> {
    await this.serverSide.lane.whenIdle();
    // Answers still waiting for a client line that never ended are read as they are.
    await this.serverSide.flushParked();
    // The count is known only when every forwarded request is tracked (the gate observes).
    const unanswered = this.d.gate?.observe ? this.correlator.size : null;
    return { unanswered, stats: this.d.stats };
  }
}
