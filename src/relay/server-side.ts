/**
 * Server → client. A frame is parsed only when someone needs it: the gate observes server
 * messages, or the frame may answer a request we track (a cheap scan for `"id"` first). Each
 * correlated response is shown to the gate before its bytes go on, so taint and pins are up to
 * date before the client can send its next call. Bytes are always the original ones.
 *
 * In pass-through (a record-only gate, or none) the bytes went on as they arrived; the same steps
 * run after, in a lane shared with the client side so that a response is observed before any
 * call the client sent after reading it is judged.
 */
import type { Gate, JudgeContext } from "../core/gate.js";
import { classify, type Classified } from "../core/jsonrpc.js";
import { parseSharingLongStrings } from "../core/long-string-parse.js";
import type { JsonRpcId } from "../core/types.js";
import type { Correlator } from "./correlate.js";
import type { ByteSink } from "./flow.js";
import type { SessionFacts } from "./handshake.js";
import { Lane } from "./lane.js";
import { guessNonJson, isBig, isCut, logSeen, mentions, textOf, type SeenFrame } from "./seen-frame.js";
import type { RelayLog, RelayStats } from "./types.js";

const ID_KEY = Buffer.from('"id"');
/** A key spelled with escapes (`"\u0069d"`) holds a backslash: such a frame is read too. */
const BACKSLASH = Buffer.from("\\");

export interface ServerSideDeps {
  gate: Gate | undefined;
  log: RelayLog;
  toClient: ByteSink;
  correlator: Correlator;
  facts: SessionFacts;
  stats: RelayStats;
  announce: (line: string) => void;
  onError: (err: unknown) => void;
  /** Told when the lane starts/stops waiting on the gate, to pause the server's stdout. */
  onBusy: (busy: boolean) => void;
  /** The relay already wrote the bytes to the client; only record and observe. */
  passThrough: boolean;
  lane?: Lane;
}

export class ServerSide {
  readonly lane: Lane;
  private readonly ctx: JudgeContext;
  private observeFailures = 0;
  private looseAnswers = 0;

  constructor(private readonly d: ServerSideDeps) {
    this.lane = d.lane ?? new Lane(d.onError, d.onBusy);
    this.ctx = { record: (ev, data) => d.log.event(ev, data), announce: d.announce };
  }

  onFrame(frame: SeenFrame): void {
    this.d.stats.s2cFrames++;
    this.lane.run(() => this.handle(frame));
  }

  private send(frame: SeenFrame): void {
    if (!this.d.passThrough && !isBig(frame)) this.d.toClient.write(frame.raw);
  }

  private handle(frame: SeenFrame): void | Promise<void> {
    const d = this.d;
    const wanted =
      d.gate?.observeServerMessage !== undefined ||
      (d.correlator.size > 0 && (mentions(frame, ID_KEY) || mentions(frame, BACKSLASH)));
    if (!wanted) {
      logSeen(d.log, "s2c", frame, guessNonJson(frame));
      this.send(frame);
      return;
    }
    let value: unknown;
    try {
      value = parseSharingLongStrings(textOf(frame));
    } catch {
      logSeen(d.log, "s2c", frame, true);
      this.send(frame);
      return;
    }
    logSeen(d.log, "s2c", frame, false, true);
    const work: Promise<void>[] = [];
    this.visit(classify(value), work, isCut(frame));
    if (work.length === 0) {
      this.send(frame);
      return;
    }
    return Promise.all(work).then(() => this.send(frame));
  }

  private visit(c: Classified, work: Promise<void>[], cut: boolean): void {
    const d = this.d;
    if (c.kind === "batch") {
      for (const m of c.members) this.visit(m, work, cut);
      return;
    }
    if (c.kind === "response") {
      if (c.id === null) return;
      const { answers, loose } = d.correlator.answered(c.id, c.msg);
      if (loose && answers.length > 0) this.looseAnswer(c.id, answers);
      for (const found of answers) {
        if (!loose && (found.request.method === "initialize" || found.request.method === "server/discover")) {
          d.facts.serverResponse(found.request.method, c.msg);
        }
        const observe = d.gate?.observe;
        if (observe)
          this.call(() => {
            const seen = { request: found.origin, response: c.msg, ...(cut ? { cut: true as const } : {}) };
            return observe.call(d.gate, seen, this.ctx);
          }, work);
      }
      return;
    }
    if (c.kind === "request" || c.kind === "notification") {
      const gate = d.gate;
      if (gate?.observeServerMessage) this.call(() => gate.observeServerMessage?.(c.msg, this.ctx), work);
    }
  }

  /** A response whose id only loosely matches (correlate.ts): checked as an answer, and said once. */
  private looseAnswer(
    id: JsonRpcId,
    answers: readonly { request: { id: JsonRpcId; method: string } }[],
  ): void {
    const to = answers.map((a) => `${a.request.method} ${JSON.stringify(a.request.id)}`).join(", ");
    this.d.log.event("loose-id", { id, answers: answers.map((a) => a.request.id) });
    if (this.looseAnswers++ === 0)
      this.d.announce(
        `the server answered with id ${JSON.stringify(id)}, which no request has; a client may take it for ${to}, so it was checked as that answer`,
      );
  }

  /** Runs a gate hook; failures are logged and said, and never stop the frame. */
  private call(fn: () => void | Promise<void>, work: Promise<void>[]): void {
    try {
      const r = fn();
      if (r instanceof Promise) work.push(r.catch((err: unknown) => this.failed(err)));
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.d.log.event("observe-error", { error: message });
    if (this.observeFailures++ === 0)
      this.d.announce(`the gate failed to inspect a server message: ${message}`);
  }
}
