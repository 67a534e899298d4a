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
import type { Gate, JudgeContext } from "../../core/gate/gate.js";
import { classify, isRecord, isValidId, type Classified } from "../../core/wire/jsonrpc.js";
import { answerReadings, type AnswerReading } from "../../core/wire/answer-readings.js";
import { parsePythonJson } from "../../core/json/lenient-json.js";
import { parseSharingLongStrings } from "../../core/json/long-string-parse.js";
import type { JsonRpcId } from "../../core/types.js";
import type { FrameCut } from "../../core/framing/big-line.js";
import type { Correlator, Pending, SentRequest } from "./correlate.js";
import { inTurn } from "../gates/gate-chain.js";
import type { ByteSink } from "../session/flow.js";
import type { SessionFacts } from "../session/handshake.js";
import { AnswerNotices } from "./answer-notices.js";
import { Lane } from "../session/lane.js";
import {
  guessNonJson,
  isCut,
  logSeen,
  mentions,
  textOf,
  writeOn,
  type SeenFrame,
} from "../session/seen-frame.js";
import type { RelayLog, RelayStats } from "../session/types.js";

/** `"id"` in every case a Go client reads it in (`"ID"`, `"Id"`, `"iD"`). */
const ID_KEYS = ['"id"', '"ID"', '"Id"', '"iD"'].map((k) => Buffer.from(k));
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
  /**
   * The client side's lane, when it is not this one: a response that answers nothing yet may
   * answer a client request still waiting in it (behind a held call).
   */
  clientLane?: Lane;
  /**
   * Pass-through: whether a client line is part-way across. The server has read its start, and
   * may already answer the request in it, whose id effectgate cannot know before the line ends.
   */
  clientCrossing?: () => boolean;
}

/** An answer that came while a client line was still crossing, waiting for that line to end. */
interface Parked {
  frame: SeenFrame;
  value: unknown;
}

/** Answers kept waiting for one crossing client line; an honest server sends one or two. */
const MAX_PARKED = 64;

/** Stands for the request of an answer that answers none: it is still scanned (decision 0066). */
const NO_REQUEST = "(no request)";

/** One reading of a response, and the requests a client could take it to answer. */
interface Match {
  reading: AnswerReading;
  answers: Pending[];
  /** Not the request with this exact id as JSON.parse reads it. */
  loose: boolean;
}

export class ServerSide {
  readonly lane: Lane;
  private readonly ctx: JudgeContext;
  private readonly notices: AnswerNotices;
  /** Answers waiting for the client line that was crossing when they came (pass-through). */
  private parked: Parked[] = [];
  /** Server frames that came while a client line was crossing, since that line last ended. */
  private crossedEarly = 0;

  constructor(private readonly d: ServerSideDeps) {
    this.lane = d.lane ?? new Lane(d.onError, d.onBusy);
    this.ctx = { record: (ev, data) => d.log.event(ev, data), announce: d.announce };
    this.notices = new AnswerNotices(d.log, d.announce);
  }

  /**
   * `by`: the `--url` bridge wrote this frame in the server's place. Only its log record says so;
   * it is read like the server's, since it may quote the server's HTTP error (decision 0114).
   */
  onFrame(frame: SeenFrame, by?: "bridge"): void {
    this.d.stats.s2cFrames++;
    // Asked as the frame is split, when both sides have crossed exactly as far as the relay saw.
    const crossing = this.d.clientCrossing?.() === true;
    if (crossing) this.crossedEarly++;
    this.lane.run(() => this.handle(frame, crossing, by));
  }

  /**
   * A client frame ended (pass-through, after it was handed to the shared lane): answers that
   * came while it was crossing are correlated again once it has been read and its request
   * tracked, in the order they came.
   */
  afterClientFrame(): void {
    if (this.crossedEarly === 0) return;
    this.crossedEarly = 0;
    this.lane.run(() => this.retryParked());
  }

  /** At the end (the client line never ended): parked answers are read as they are. */
  flushParked(): Promise<void> {
    this.lane.run(() => this.retryParked());
    return this.lane.whenIdle();
  }

  private retryParked(): void | Promise<void> {
    const parked = this.parked.splice(0);
    return inTurn(parked.map((p) => () => this.answer(p.frame, p.value, false, false)));
  }

  private send(frame: SeenFrame): void {
    if (!this.d.passThrough) writeOn(frame, this.d.toClient);
  }

  /** Whether client frames wait in their own lane (behind a call being judged). */
  private clientBusy(): boolean {
    const lane = this.d.clientLane;
    return lane !== undefined && lane !== this.lane && lane.busy;
  }

  private handle(frame: SeenFrame, crossing: boolean, by: "bridge" | undefined): void | Promise<void> {
    const d = this.d;
    // With a gate that observes answers, even one that answers nothing is read (and scanned).
    const mayAnswer =
      (d.gate?.observe !== undefined ||
        d.correlator.size > 0 ||
        d.correlator.holding ||
        this.clientBusy() ||
        crossing) &&
      (ID_KEYS.some((k) => mentions(frame, k)) || mentions(frame, BACKSLASH));
    if (d.gate?.observeServerMessage === undefined && !mayAnswer) {
      logSeen(d.log, "s2c", frame, guessNonJson(frame), false, by);
      this.send(frame);
      return;
    }
    const text = textOf(frame);
    let value: unknown;
    let pythonOnly = false;
    try {
      value = parseSharingLongStrings(text);
    } catch {
      // Python's readers take NaN and Infinity; the official Python client acts on such an answer.
      value = parsePythonJson(text);
      if (value === undefined) {
        logSeen(d.log, "s2c", frame, true, false, by);
        this.send(frame);
        return;
      }
      pythonOnly = true;
    }
    // Not JSON (NaN): the log keeps it as text, never as raw JSON.
    logSeen(d.log, "s2c", frame, pythonOnly, !pythonOnly, by);
    return this.answer(frame, value, true, crossing);
  }

  /**
   * Correlates every reading of the frame, drops it when it answers a request the server never
   * saw, shows it to the gate as every answer a client could take it for, then sends it.
   * `mayWait`: a response that answers nothing yet waits (once) until the client side has caught
   * up, since the request it answers may still be queued there. `crossing` (pass-through): it
   * came while a client line was part-way across, and one that answers nothing yet waits until
   * that line has ended and been read: the request it answers may be in it.
   */
  private answer(
    frame: SeenFrame,
    value: unknown,
    mayWait: boolean,
    crossing: boolean,
  ): void | Promise<void> {
    const d = this.d;
    const c = classify(value);
    const groups = readingGroups(value);
    const readings = groups.flat();
    if (crossing && readings.some((r) => d.correlator.peek(r.id).length === 0)) {
      this.parked.push({ frame, value });
      if (this.parked.length <= MAX_PARKED) return;
      // A server that keeps answering while one line crosses: the oldest is read now, as it is
      // (an answer to nothing is still scanned), so that memory stays bounded.
      const oldest = this.parked.shift() as Parked;
      return this.answer(oldest.frame, oldest.value, false, false);
    }
    if (!d.passThrough) {
      for (const r of readings) {
        const why = d.correlator.blockedBy(r.id);
        if (why !== undefined) return this.notices.dropped(r, why);
      }
      if (mayWait && this.clientBusy() && readings.some((r) => d.correlator.peek(r.id).length === 0)) {
        const lane = d.clientLane as Lane;
        return lane.whenIdle().then(() => this.answer(frame, value, false, false));
      }
    }
    const work: Promise<void>[] = [];
    const cut = isCut(frame) ? frame.cut : undefined;
    const matched = new Set<AnswerReading>();
    for (const m of this.matches(c, readings)) {
      if (m.answers.length > 0) matched.add(m.reading);
      this.observeAnswer(m, work, cut);
    }
    for (const group of groups)
      if (group.length > 0 && !group.some((r) => matched.has(r))) this.answersNothing(group, work, cut);
    this.visitMessages(c, work);
    if (work.length === 0) return this.send(frame);
    return Promise.all(work).then(() => this.send(frame));
  }

  /**
   * The requests each reading answers. The reading JSON.parse gives of a well-formed response
   * answers its request exactly (and ends it); every other reading (a member in another case, a
   * method beside the result, an id only a lax client matches) is checked as the answer of
   * whatever a client could take it for, and ends nothing.
   */
  private matches(c: Classified, readings: readonly AnswerReading[]): Match[] {
    const d = this.d;
    const exact = new Set<Record<string, unknown>>();
    for (const m of c.kind === "batch" ? c.members : [c])
      if (m.kind === "response" && m.id !== null) exact.add(m.msg);
    // Other readings first: the exact one ends its request, which they may answer too.
    const others = readings
      .filter((r) => !(r.how === "exact" && exact.has(r.msg)))
      .map((reading) => ({ reading, answers: d.correlator.peek(reading.id), loose: true }));
    const exactOnes = readings
      .filter((r) => r.how === "exact" && exact.has(r.msg))
      .map((reading) => ({ reading, ...d.correlator.answered(reading.msg.id as JsonRpcId, reading.msg) }));
    return [...exactOnes, ...others];
  }

  private observeAnswer(m: Match, work: Promise<void>[], cut: FrameCut | undefined): void {
    const d = this.d;
    const { reading, answers, loose } = m;
    if (loose && answers.length > 0) this.notices.loose(reading, answers);
    for (const found of answers) {
      if (!loose && (found.request.method === "initialize" || found.request.method === "server/discover")) {
        d.facts.serverResponse(found.request.method, reading.msg);
      }
      // A retry (2026-07-28 `requestState`) is also its own call: its name and arguments may
      // differ from the call that got the state, and either may be what taints.
      const asked =
        found.request !== found.origin && found.request.method === found.origin.method
          ? [found.origin, found.request]
          : [found.origin];
      for (const request of asked) this.show(request, reading.msg, cut, work);
    }
  }

  /** Shows a response to the gate as the answer of `request`. */
  private show(
    request: SentRequest,
    response: Record<string, unknown>,
    cut: FrameCut | undefined,
    work: Promise<void>[],
  ): void {
    const d = this.d;
    const observe = d.gate?.observe;
    if (!observe) return;
    // Cut before the scan's budget was used up (structure-cut.ts): what enforce's scan reads of
    // it may be missing, and the scan's own count cannot know; the gate says so and taints.
    const seen = {
      request,
      response,
      ...(cut ? { cut: true as const } : {}),
      ...(cut?.beforeScan ? { scanCut: true as const } : {}),
    };
    this.call(() => observe.call(d.gate, seen, this.ctx), work);
  }

  /**
   * A server message that answers no request effectgate knows of, exactly or as any lax client
   * would match it. A client may still show it (one whose request effectgate never saw, or one
   * laxer than any effectgate knows), so every reading of it is scanned as content of unknown
   * origin: injected text in it taints the session as in any answer. It is logged, and said once.
   */
  private answersNothing(
    group: readonly AnswerReading[],
    work: Promise<void>[],
    cut: FrameCut | undefined,
  ): void {
    const d = this.d;
    if (!d.gate?.observe) return;
    this.notices.unmatched((group[0] as AnswerReading).id, group.length);
    for (const reading of group) {
      const request = {
        method: NO_REQUEST,
        id: isValidId(reading.id) ? reading.id : JSON.stringify(reading.id ?? null),
        params: undefined,
      };
      this.show(request, reading.msg, cut, work);
    }
  }

  /** Server→client requests and notifications, shown to the gate. */
  private visitMessages(c: Classified, work: Promise<void>[]): void {
    const gate = this.d.gate;
    if (!gate?.observeServerMessage) return;
    for (const m of c.kind === "batch" ? c.members : [c])
      if (m.kind === "request" || m.kind === "notification")
        this.call(() => gate.observeServerMessage?.(m.msg, this.ctx), work);
  }

  /** Runs a gate hook; failures are logged and said, and never stop the frame. */
  private call(fn: () => void | Promise<void>, work: Promise<void>[]): void {
    try {
      const r = fn();
      if (r instanceof Promise) work.push(r.catch((err: unknown) => this.notices.observeFailed(err)));
    } catch (err) {
      this.notices.observeFailed(err);
    }
  }
}

/** Every response reading of a message, or of each object in a batch (one group each). */
function readingGroups(value: unknown): AnswerReading[][] {
  const messages: unknown[] = Array.isArray(value) ? value : [value];
  return messages.map((m) => (isRecord(m) ? answerReadings(m) : []));
}
