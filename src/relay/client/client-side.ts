/**
 * Client → server. Every frame is forwarded as its original bytes unless it carries a judged
 * request that the gate refuses; then the client gets a refusal with the same id and the server
 * never sees it. While a call is being judged, later frames wait behind it (order is kept);
 * only answers to effectgate's own asks skip the queue, since the judgement may be waiting on them.
 *
 * With a record-only gate (observe) or none (off) the bytes have already gone on when a frame
 * gets here (`passThrough`): the same steps run to log, judge and track it, but nothing is held.
 */
import type {
  AskAnswer,
  AskHow,
  AskReply,
  Gate,
  HeldRequest,
  JudgeContext,
  SettledAnswer,
} from "../../core/gate/gate.js";
import { effectEntries, effectKey } from "../../core/gate/effect-key.js";
import type { OutOfBand } from "./ask-store.js";
import { classify, isRecord, type Classified } from "../../core/wire/jsonrpc.js";
import { readClientFrame, type ClientRequest } from "../../core/wire/client-frame.js";
import { parseSharingLongStrings } from "../../core/json/long-string-parse.js";
import { batchRefusalFrame, refusalFrame, type RefusalMember } from "../../core/gate/refusal-frame.js";
import type { Asker } from "./ask.js";
import { idKey, type Correlator } from "../server/correlate.js";
import type { ByteSink, Holdable } from "../session/flow.js";
import type { SessionFacts } from "../session/handshake.js";
import { heldIds, isId, refusalAnswers, withClientSpelling, type Member } from "./held-members.js";
import { batchRecords, type MemberRecords } from "./batch-records.js";
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
import type { RelayLog, RelayStats } from "../session/types.js";

/** Frames queued behind a held call before the client is paused (unless an ask is out). */
const MAX_QUEUED_FRAMES = 256;

/** Cheap test before parsing: a frame that may cancel a request held here. */
const CANCELLED = Buffer.from("notifications/cancelled");

const HANDSHAKE_HINTS = ['"initialize"', "server/discover", "io.modelcontextprotocol/protocolVersion"].map(
  (s) => Buffer.from(s),
);

export interface ClientSideDeps {
  gate: Gate | undefined;
  log: RelayLog;
  toServer: ByteSink;
  /** Writes a line effectgate made up (refusal, ask) to the client and logs it. */
  toClient: (line: string) => void;
  correlator: Correlator;
  facts: SessionFacts;
  asker: Asker;
  stats: RelayStats;
  flow: Holdable;
  announce: (line: string) => void;
  onError: (err: unknown) => void;
  /** The relay wrote the frame's bytes to the server as they arrived; only record and judge. */
  passThrough: boolean;
  /** In pass-through both directions share one lane, so records keep the order frames crossed. */
  lane?: Lane;
  /** Grants to check and a place for questions nobody can be asked in the chat (decision 0105). */
  outOfBand?: OutOfBand;
}

export class ClientSide {
  readonly lane: Lane;
  private readonly refusedIds = new Set<string>();
  private queueHeld = false;
  /** The frame being handled: `done` once its bytes went on or it was answered. */
  private inFlight: { done: boolean } | undefined;
  /**
   * Requests (idKey) the client cancelled while they waited here, being judged or asked about or
   * queued behind such a call: they are never sent (the cancel comes through the lane after them).
   */
  private readonly cancelledAhead = new Set<string>();
  /** Held requests being judged, each with a way to end its question when the client cancels it. */
  private readonly judging = new Map<string, AbortController>();

  constructor(private readonly d: ClientSideDeps) {
    this.lane = d.lane ?? new Lane(d.onError);
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
    if (this.lane.queued > MAX_QUEUED_FRAMES && !this.queueHeld && !d.asker.pending) {
      this.queueHeld = true;
      d.flow.hold();
      void this.lane.whenIdle().then(() => this.releaseQueueHold());
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
    this.cancelledAhead.add(key);
    this.judging.get(key)?.abort();
  }

  private releaseQueueHold(): void {
    if (!this.queueHeld) return;
    this.queueHeld = false;
    this.d.flow.release();
  }

  /**
   * handle(), failing closed: an exception while a frame is handled answers every request in it
   * with an error and logs it, unless its bytes already went on or it was answered. Nothing of
   * the frame is sent, and the client is never left waiting.
   */
  private handleClosed(frame: SeenFrame): void | Promise<void> {
    const state = { done: false };
    this.inFlight = state;
    const failed = (err: unknown): void => {
      if (!state.done && !this.d.passThrough) this.answerFailure(frame, err);
      this.d.onError(err);
    };
    try {
      const pending = this.handle(frame);
      if (pending instanceof Promise) return pending.catch(failed);
    } catch (err) {
      failed(err);
    }
  }

  private answerFailure(frame: SeenFrame, err: unknown): void {
    const d = this.d;
    const message = err instanceof Error ? err.message : String(err);
    const ids = failureIds(textOf(frame));
    d.log.event("handling-error", { ids, error: message });
    if (ids.length === 0) return;
    const answers = ids.map((id) => ({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32603,
        message: `effectgate could not handle this request (${message}), so it was not sent to the server`,
      },
    }));
    d.stats.refused += ids.length;
    d.toClient(
      JSON.stringify(ids.length === 1 && !textOf(frame).trimStart().startsWith("[") ? answers[0] : answers),
    );
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
      if (read.calls.length === 0) return this.forward(frame);
      return this.judgeMembers(frame, read.calls, undefined, []);
    }
    logSeen(d.log, "c2s", frame, false, true);
    const c = read.message;
    if (!read.crSplit && this.ownAnswer(c)) return;
    if (c.kind === "notification" && this.swallowCancel(c.method, c.params)) return;
    // Notes the handshake (initialize, server/discover) of every request in the frame.
    for (const r of read.requests) d.facts.clientRequest(r.method, r.params);
    if (read.calls.length === 0) {
      this.trackAll(read.requests);
      return this.forward(frame);
    }
    return this.judgeMembers(frame, read.calls, read.members, read.requests);
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
        return this.forward(frame);
      } catch {
        // not JSON: falls through to the plain path
      }
    }
    logSeen(d.log, "c2s", frame, guessNonJson(frame));
    this.forward(frame);
  }

  /**
   * Judges each member in turn. All forward: the frame goes on unchanged. Any refusal: nothing
   * of the frame is sent, and every request in it is answered (one array frame for a batch).
   */
  private async judgeMembers(
    frame: SeenFrame,
    judged: Member[],
    all: Classified[] | undefined,
    requests: readonly ClientRequest[],
  ): Promise<void> {
    const d = this.d;
    const isBatch = all !== undefined;
    // Until the frame is sent or answered, the server must not answer any request in it: it has
    // not seen them, and a client would take its made-up answer (server-side.ts drops it).
    const held = d.passThrough ? [] : heldIds(judged, all);
    // Cancelled while it waited behind another call: not judged, not sent.
    if (this.anyCancelled(held)) return this.cancelHeld(frame, judged, held, isBatch, all);
    for (const id of held) d.correlator.hold(id);
    for (const m of judged) this.judging.set(idKey(m.id), new AbortController());
    let firstRefusal: { member: Member; text: string } | undefined;
    const refusedText = new Map<Member, string>();
    // Several calls in one batch share its fate: their records wait until it is known.
    const records = judged.length > 1 ? new Map<Member, MemberRecords>() : undefined;
    try {
      for (const member of judged) {
        const kept: MemberRecords | undefined = records && { events: [], wouldRefuse: false };
        if (kept) records?.set(member, kept);
        const answer = await this.judge(heldRequest(member), kept);
        // At observe nothing is refused, but the answer says what enforce would refuse.
        if (kept) kept.wouldRefuse = answer.wouldRefuse === true;
        if (answer.action === "refuse") {
          refusedText.set(member, answer.text);
          firstRefusal ??= { member, text: answer.text };
        }
      }
    } finally {
      for (const id of held) d.correlator.release(id);
      for (const m of judged) this.judging.delete(idKey(m.id));
    }
    // Cancelled while it was judged or asked about: whatever the verdict, it is not sent, and
    // not answered (the client ignores a late answer to what it cancelled).
    if (this.anyCancelled(held)) {
      if (records)
        for (const [ev, data] of batchRecords(records, firstRefusal?.member, refusedText, false))
          this.d.log.event(ev, data);
      return this.cancelHeld(frame, judged, held, isBatch, all);
    }
    if (records)
      for (const [ev, data] of batchRecords(records, firstRefusal?.member, refusedText, this.d.passThrough))
        this.d.log.event(ev, data);
    if (!firstRefusal) {
      if (isBatch) this.trackAll(requests);
      else for (const m of judged) this.track(m.method, m.id, m.params);
      return this.forward(frame);
    }
    if (d.passThrough) {
      // The gate said it only records, so the bytes went on before judging. Say so loudly.
      d.onError(new Error(`a record-only gate refused ${firstRefusal.member.method} after it was sent`));
      return;
    }
    const reasonOthers = `Not sent: effectgate refused another call in the same batch (${firstRefusal.member.method} id ${JSON.stringify(firstRefusal.member.id)}): ${firstRefusal.text}`;
    const answers = refusalAnswers(judged, refusedText, reasonOthers, all);
    for (const m of judged)
      if (m.answerId && isId(m.answerId.value)) this.refusedIds.add(idKey(m.answerId.value));
    for (const id of held) d.correlator.refused(id);
    d.stats.refused += judged.length;
    d.log.event("refused", {
      batch: isBatch,
      calls: judged.map((m) => ({
        method: m.method,
        id: m.answerId?.value ?? null,
        problem: m.problem ?? null,
        text: refusedText.get(m) ?? reasonOthers,
      })),
    });
    if (answers.length === 0) {
      d.announce(
        `refused a ${firstRefusal.member.method} that carried no usable id; nothing could be answered: ${firstRefusal.text}`,
      );
      return;
    }
    // An id past 2^53 is answered as the client spelled it, not as JSON.parse rounded it.
    const spelled = withClientSpelling(answers, () => textOf(frame));
    if (this.inFlight) this.inFlight.done = true;
    d.toClient(
      spelled.spell(
        isBatch ? batchRefusalFrame(spelled.answers) : refusalFrame(spelled.answers[0] as RefusalMember),
      ),
    );
  }

  private anyCancelled(held: readonly HeldRequest["id"][]): boolean {
    return this.cancelledAhead.size > 0 && held.some((id) => this.cancelledAhead.has(idKey(id)));
  }

  /**
   * A frame whose request the client cancelled while effectgate held it: nothing of it is sent.
   * The cancelled requests get no answer; in a batch, every other request is answered as not
   * sent. The server never saw any of them, so no answer of its may carry their ids.
   */
  private cancelHeld(
    frame: SeenFrame,
    judged: Member[],
    held: readonly HeldRequest["id"][],
    isBatch: boolean,
    all?: Classified[],
  ): void {
    const d = this.d;
    // Settled here: a later failure must not answer what the client cancelled.
    if (this.inFlight) this.inFlight.done = true;
    const cancelled = held.filter((id) => this.cancelledAhead.has(idKey(id)));
    for (const id of held) d.correlator.refused(id);
    // Its cancel, still in the lane, goes no further either.
    for (const id of cancelled) this.refusedIds.add(idKey(id));
    d.stats.consumed++;
    d.log.event("cancelled-held", { ids: cancelled, batch: isBatch });
    if (!isBatch) return;
    const text = `Not sent: the client cancelled another call in the same batch (id ${JSON.stringify(cancelled[0])}) while effectgate held it.`;
    const answers = refusalAnswers(judged, new Map(), text, all).filter(
      (a) => !(isId(a.id) && cancelled.some((id) => idKey(id) === idKey(a.id as HeldRequest["id"]))),
    );
    if (answers.length === 0) return;
    for (const a of answers) if (isId(a.id)) this.refusedIds.add(idKey(a.id));
    d.log.event("refused", {
      batch: true,
      calls: answers.map((a) => ({ method: a.method ?? null, id: a.id ?? null, problem: null, text })),
    });
    const spelled = withClientSpelling(answers, () => textOf(frame));
    d.toClient(spelled.spell(batchRefusalFrame(spelled.answers)));
  }

  /** The gate's answer, once any question it asked is settled; a gate that throws refuses. */
  private async judge(held: HeldRequest, kept?: MemberRecords): Promise<SettledAnswer> {
    const d = this.d;
    const gate = d.gate as Gate;
    const ctx = this.context(held, kept);
    try {
      let answer = await gate.judge(held, ctx);
      while (answer.action === "ask") {
        const [reply, how] = ctx.canAsk ? await this.ask(held, answer) : (["failed"] as const);
        answer = await answer.settle(reply, how);
      }
      return answer;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      d.log.event("gate-error", { method: held.method, id: held.id, error: message });
      d.announce(`could not judge ${held.method} id ${JSON.stringify(held.id)}: ${message}; refused it`);
      return {
        action: "refuse",
        text: `effectgate could not judge this call (${message}), so it was not sent to the server.`,
      };
    }
  }

  /**
   * Puts a gate's question to the user. A grant from `effectgate allow` for exactly this effect
   * answers it unasked; else the client is asked in its chat when it can be (elicitation); else
   * the question waits out of band and the call is refused with its id (decision 0105).
   */
  private async ask(held: HeldRequest, answer: AskAnswer): Promise<[AskReply, AskHow?]> {
    const d = this.d;
    const oob = d.outOfBand;
    // Without the judge's effects there is nothing exact to bind a grant to: never one then.
    const key =
      oob && answer.decision && answer.tool !== undefined
        ? effectKey({
            server: oob.server,
            method: held.method,
            tool: answer.tool,
            effects: answer.decision.effects,
          })
        : undefined;
    try {
      if (oob && key !== undefined) {
        const grant = (await oob.store()).takeGrant(key);
        if (grant) {
          d.announce(
            `${held.method} id ${JSON.stringify(held.id)}: allowed by \`effectgate allow ${grant.id}\``,
          );
          return ["accept", { channel: "grant", pendingId: grant.id }];
        }
      }
      if (this.canElicit(held)) {
        this.releaseQueueHold(); // the answer must be able to arrive
        const approval = await d.asker.ask(
          answer.question,
          (seconds) =>
            d.announce(
              `nobody answered the question about ${held.method} id ${JSON.stringify(held.id)} within ${seconds} s; refused it`,
            ),
          this.judging.get(idKey(held.id))?.signal,
        );
        return [approval.answer, { channel: "elicitation", ...(approval.why ? { why: approval.why } : {}) }];
      }
      if (!oob || key === undefined || !answer.decision || answer.tool === undefined) return ["failed"];
      const q = (await oob.store()).addPending({
        key,
        server: oob.server,
        method: held.method,
        tool: answer.tool,
        effects: effectEntries(answer.decision.effects),
        rule: answer.decision.rule ?? null,
        reason: answer.decision.reason,
        question: answer.question,
        pid: process.pid,
        cwd: process.cwd(),
      });
      d.announce(
        `${held.method} id ${JSON.stringify(held.id)} needs your word: run \`effectgate allow ${q.id}\` (\`effectgate pending\` shows it), then retry`,
      );
      return ["pending", { channel: "pending", pendingId: q.id }];
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      d.announce(`could not ask about ${held.method} id ${JSON.stringify(held.id)}: ${why}; refused it`);
      return ["failed", { channel: oob ? "pending" : "elicitation", why }];
    }
  }

  /** Whether this call's question can be put in the client's chat (a legacy elicitation). */
  private canElicit(held: HeldRequest): boolean {
    const d = this.d;
    return !d.passThrough && d.facts.era === "legacy" && d.facts.clientCanElicit && !held.modern;
  }

  private context(held: HeldRequest, kept?: MemberRecords): JudgeContext {
    const d = this.d;
    const canAsk = !d.passThrough && (this.canElicit(held) || d.outOfBand !== undefined);
    return kept
      ? {
          record: (ev, data) => kept.events.push([ev, data]),
          announce: d.announce,
          recordAllows: true,
          canAsk,
        }
      : { record: (ev, data) => d.log.event(ev, data), announce: d.announce, canAsk };
  }

  /** A client's cancel for a request effectgate answered itself goes no further. */
  private swallowCancel(method: string, params: unknown): boolean {
    if (method !== "notifications/cancelled" || !isRecord(params) || !isId(params.requestId)) return false;
    // Every request before it in the lane has been read by now.
    this.cancelledAhead.delete(idKey(params.requestId));
    if (!this.refusedIds.delete(idKey(params.requestId))) return false;
    this.d.stats.consumed++;
    return true;
  }

  private trackAll(requests: readonly ClientRequest[]): void {
    for (const r of requests) this.track(r.method, r.id, r.params);
  }

  private track(method: string, id: HeldRequest["id"], params: unknown): void {
    if (this.d.gate?.observe || method === "initialize" || method === "server/discover")
      this.d.correlator.sent({ method, id, params });
  }

  private forward(frame: SeenFrame): void {
    if (this.inFlight) this.inFlight.done = true;
    this.d.stats.forwarded++;
    // A big frame exists only in pass-through, where its bytes have already gone on.
    if (!this.d.passThrough && !isBig(frame)) this.d.toServer.write(frame.raw);
  }
}

/** What the gate is shown of a judged call. */
function heldRequest(m: Member): HeldRequest {
  return {
    method: m.method,
    id: m.id,
    params: m.params,
    modern: m.modern,
    ...(m.problem !== undefined ? { problem: m.problem } : {}),
  };
}

/**
 * The ids of a frame that could not be handled, best effort: every request (and ill-formed call)
 * of the frame when it parses, else the first id its text shows.
 */
function failureIds(text: string): unknown[] {
  try {
    const c = classify(JSON.parse(text));
    return (c.kind === "batch" ? c.members : [c]).flatMap((m) =>
      (m.kind === "request" || m.kind === "invalid") && m.id !== undefined && isId(m.id) ? [m.id] : [],
    );
  } catch {
    const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(text);
    try {
      return m?.[1] !== undefined ? [JSON.parse(m[1]) as unknown] : [];
    } catch {
      return [];
    }
  }
}
