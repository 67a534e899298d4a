/**
 * Client → server. Every frame is forwarded as its original bytes unless it carries a judged
 * request that the gate refuses; then the client gets a refusal with the same id and the server
 * never sees it. While a call is being judged, later frames wait behind it (order is kept);
 * only answers to effectgate's own asks skip the queue, since the judgement may be waiting on them.
 *
 * With a record-only gate (observe) or none (off) the bytes have already gone on when a frame
 * gets here (`passThrough`): the same steps run to log, judge and track it, but nothing is held.
 */
import { classify, isRecord, type Classified } from "../../core/wire/jsonrpc.js";
import { readClientFrame } from "../../core/wire/client-frame.js";
import { parseSharingLongStrings } from "../../core/json/long-string-parse.js";
import { idKey } from "../server/correlate.js";
import { isId } from "./held-members.js";
import { Lane } from "../session/lane.js";
import {
  cutProblem,
  guessNonJson,
  isBig,
  logSeen,
  mentions,
  textOf,
  type SeenFrame,
} from "../session/seen-frame.js";
import { ClientContext, type ClientSideDeps } from "./client-context.js";
import { judgeMembers } from "./judge-members.js";
import { answerFailure } from "./write-refusal.js";

export type { ClientSideDeps } from "./client-context.js";

/** Frames queued behind a held call before the client is paused (unless an ask is out). */
const MAX_QUEUED_FRAMES = 256;

/** Cheap test before parsing: a frame that may cancel a request held here. */
const CANCELLED = Buffer.from("notifications/cancelled");

const HANDSHAKE_HINTS = ['"initialize"', "server/discover", "io.modelcontextprotocol/protocolVersion"].map(
  (s) => Buffer.from(s),
);

export class ClientSide {
  readonly lane: Lane;
  private readonly client: ClientContext;

  constructor(private readonly d: ClientSideDeps) {
    this.lane = d.lane ?? new Lane(d.onError);
    this.client = new ClientContext(d);
  }

  onFrame(frame: SeenFrame): void {
    const d = this.d;
    d.stats.c2sFrames++;
    // Answers to our asks skip the queue: the held call ahead of them may be waiting on one.
    const taken =
      !d.passThrough && !isBig(frame) && d.asker.mentioned(frame.bytes) && d.asker.take(frame.bytes);
    if (taken) {
      // Bytes that are not JSON are logged as text with nonJson, like any unreadable line.
      d.log.frame("c2s", frame.bytes, frame.eol, !taken.json, taken.json);
      d.stats.consumed++;
      return;
    }
    // A cancel waits in the lane behind the call it cancels: it is noted now, so that the call
    // is not sent when its judgement ends, and its question (if any) ends at once.
    if (!d.passThrough && this.lane.busy && !isBig(frame) && mentions(frame, CANCELLED))
      this.noteCancel(frame);
    this.lane.run(() => this.handleClosed(frame));
    if (this.lane.queued > MAX_QUEUED_FRAMES && !this.client.queueHeld && !d.asker.pending) {
      this.client.queueHeld = true;
      d.flow.hold();
      void this.lane.whenIdle().then(() => this.client.releaseQueueHold());
    }
  }

  /** A `notifications/cancelled` that came while requests wait here: note which it cancels. */
  private noteCancel(frame: SeenFrame): void {
    let value: unknown;
    try {
      value = parseSharingLongStrings(textOf(frame));
    } catch {
      return; // not JSON: read in its turn
    }
    const c = classify(value);
    if (c.kind !== "notification" || c.method !== "notifications/cancelled") return;
    if (!isRecord(c.params) || !isId(c.params.requestId)) return;
    const key = idKey(c.params.requestId);
    this.client.cancelledAhead.add(key);
    this.client.judging.get(key)?.abort();
  }

  /**
   * handle(), failing closed: an exception while a frame is handled answers every request in it
   * with an error and logs it, unless its bytes already went on or it was answered. Nothing of
   * the frame is sent, and the client is never left waiting.
   */
  private handleClosed(frame: SeenFrame): void | Promise<void> {
    const state = { done: false };
    this.client.inFlight = state;
    const failed = (err: unknown): void => {
      if (!state.done && !this.d.passThrough) answerFailure(this.client, frame, err);
      this.d.onError(err);
    };
    try {
      const pending = this.handle(frame);
      if (pending instanceof Promise) return pending.catch(failed);
    } catch (err) {
      failed(err);
    }
  }

  private handle(frame: SeenFrame): void | Promise<void> {
    const d = this.d;
    if (!d.gate) return this.passUnjudged(frame);
    const text = textOf(frame);
    // A big frame was tested as it streamed past; its text may have lost what says so.
    const read = readClientFrame(
      text,
      isBig(frame)
        ? {
            crInside: frame.crInside,
            ...(frame.looksJudged !== undefined ? { looksJudged: frame.looksJudged } : {}),
            cutProblem: (value) => cutProblem(frame, value),
          }
        : {},
    );
    if (read.kind === "not-json") {
      logSeen(d.log, "c2s", frame, true);
      if (read.calls.length === 0) return this.client.forward(frame);
      return judgeMembers(this.client, frame, read.calls, undefined, []);
    }
    logSeen(d.log, "c2s", frame, false, true);
    const c = read.message;
    if (!read.crSplit && this.ownAnswer(c)) return;
    if (c.kind === "notification" && this.swallowCancel(c.method, c.params)) return;
    // Notes the handshake (initialize, server/discover) of every request in the frame.
    for (const r of read.requests) d.facts.clientRequest(r.method, r.params);
    if (read.calls.length === 0) {
      this.client.trackAll(read.requests);
      return this.client.forward(frame);
    }
    return judgeMembers(this.client, frame, read.calls, read.members, read.requests);
  }

  /**
   * An answer to one of our asks that the byte test missed (its id spelled with escapes): taken
   * here, and never forwarded. A batch holding one is dropped whole (nothing is rewritten); the
   * ask it answers then ends at its timeout.
   */
  private ownAnswer(c: Classified): boolean {
    const asker = this.d.asker;
    if (c.kind === "response" && asker.takeAnswer(c.msg)) {
      this.d.stats.consumed++;
      return true;
    }
    if (c.kind !== "batch" || !c.members.some((m) => m.kind === "response" && asker.owns(m.id))) return false;
    this.d.log.event("ask-answer-dropped", { why: "an answer inside a batch" });
    this.d.stats.consumed++;
    return true;
  }

  /** No gate (checks off): relay, reading only what the handshake record needs. */
  private passUnjudged(frame: SeenFrame): void {
    const d = this.d;
    if (d.facts.era === "unknown" && HANDSHAKE_HINTS.some((h) => mentions(frame, h))) {
      try {
        const c = classify(parseSharingLongStrings(textOf(frame)));
        logSeen(d.log, "c2s", frame, false, true);
        if (c.kind === "request" && d.facts.clientRequest(c.method, c.params))
          d.correlator.sent({ method: c.method, id: c.id, params: c.params });
        return this.client.forward(frame);
      } catch {
        // not JSON: falls through to the plain path
      }
    }
    logSeen(d.log, "c2s", frame, guessNonJson(frame));
    this.client.forward(frame);
  }

  /** A client's cancel for a request effectgate answered itself goes no further. */
  private swallowCancel(method: string, params: unknown): boolean {
    if (method !== "notifications/cancelled" || !isRecord(params) || !isId(params.requestId)) return false;
    // Every request before it in the lane has been read by now.
    this.client.cancelledAhead.delete(idKey(params.requestId));
    if (!this.client.refusedIds.delete(idKey(params.requestId))) return false;
    this.d.stats.consumed++;
    return true;
  }
}
