// One logged session rebuilt as enforce and as strict would have run it (decisions 0032, 0065).
// Every judged call is judged again by a fresh session judge per level (call-rejudge.ts); an
// answer reaches a level's judge (and may taint it) only when that level would have sent the
// call to the server. An answer effectgate wrote (a refusal, an error answer, a question) is
// effectgate's text, not the tool's, and reaches no judge: a log whose header has `marksOwn`
// marks those frames with `by: "effectgate"` (decision 0112); for an older log the legacy path
// infers them from the refusal records. The `--url` bridge's answers (`by: "bridge"`) quote the
// server and reach the judges like its answers (decision 0114). An answer to no request is
// scanned as content of unknown origin at both levels, as the relay scans it (decision 0066),
// unless the log shows the relay dropping it (`answer-dropped`). Where each answer goes is
// answer-delivery.ts; what the rebuild adds up is counts.ts.
import { JUDGED_METHODS } from "../wire/judged-methods.js";
import type { EventLike, FrameLike, RecordLike } from "../replay/entries.js";
import { RequestMatcher } from "../replay/request-matcher.js";
import {
  decisionId,
  idFromText,
  loggedText,
  refusedCalls,
  REFUSING_OUTCOMES,
} from "../replay/logged-frames.js";
import { idKey, isRecord, parseFrame } from "../replay/messages.js";
import type { SessionJudgeApi } from "../gate/session-judge.js";
import type { JsonRpcId } from "../types.js";
import { serverMessageAsAnswer } from "../wire/server-message.js";
import { answerableId, readClientFrame, type ClientRequest } from "../wire/client-frame.js";
import { AnswerDelivery, type Answer, type Sent } from "./answer-delivery.js";
import { CallRejudge } from "./call-rejudge.js";
import { type Counts, REBUILT_LEVELS, type RebuiltLevel } from "./counts.js";
import { looksLikeJudgedCall } from "../wire/judged-call-text.js";

export class SessionRebuild {
  private readonly judges: Record<RebuiltLevel, SessionJudgeApi>;
  /** Requests waiting for answers; at observe, answers parked before their call. */
  private readonly matcher = new RequestMatcher<Sent, Answer>();
  /** Where each answer the log shows goes: which judges see it. */
  private readonly answers: AnswerDelivery;
  private frames = 0;
  /** Each call judged again at both levels, and counted. */
  private readonly calls: CallRejudge;
  /** Legacy logs: ids of effectgate's own questions (`ask` events), not the server's frames. */
  private readonly asks = new Set<string>();

  constructor(
    sid: string,
    makeJudge: () => SessionJudgeApi,
    private readonly counts: Counts,
    /** `countFrom`: calls logged before this moment (ms) are judged, for taint, but not counted. */
    private readonly opts: {
      passThrough: boolean;
      countFrom?: number;
      withParams?: boolean;
      /** The session's relay offered a desktop dialog (its header's `ask`, decision 0133). */
      dialog?: boolean;
    },
  ) {
    this.judges = { enforce: makeJudge(), strict: makeJudge() };
    this.calls = new CallRejudge(sid, this.judges, counts, opts);
    this.answers = new AnswerDelivery(this.matcher, this.judges, counts, opts);
  }

  add(file: string, line: number, r: RecordLike): void {
    // A call's own events (decision, pin, refused) follow its frame: they are read first.
    if (r.type !== "event") {
      this.answers.settleHeard();
      this.answers.deliverClaimed();
    }
    if (r.type === "event") return this.event(r);
    if (r.type === "header") this.matcher.marksOwn = r.marksOwn === true;
    if (r.type !== "frame") return;
    if (r.dir === "c2s") this.clientFrame(file, line, r);
    else this.serverFrame(r);
  }

  finish(): void {
    this.answers.settleHeard();
    this.answers.deliverClaimed();
    this.answers.unclaimed();
  }

  private clientFrame(file: string, line: number, r: FrameLike): void {
    const logged = loggedText(r);
    if (!logged) return this.answers.claimEarly([]);
    const frame = ++this.frames;
    if (!logged.whole) {
      // Only the head of a frame over 16 MiB is logged: a call in it is not judged again. The
      // tool's answer, if the log shows one, did reach the session.
      if (!looksLikeJudgedCall(logged.text)) return this.answers.claimEarly([]);
      this.counts.unjudged.tooLarge += 1;
      const id = idFromText(logged.text);
      const requests = id !== undefined ? [{ method: "tools/call", id, params: undefined }] : [];
      this.track(requests, frame, { enforce: true, strict: true });
      return this.answers.claimEarly(requests);
    }
    // The relay's own reading of the frame (src/core/wire/client-frame.ts).
    const read = readClientFrame(logged.text);
    const requests: ClientRequest[] =
      read.kind === "parsed"
        ? read.requests
        : read.calls.flatMap((call) => {
            const id = answerableId(call);
            return id !== undefined ? [{ method: call.method, id, params: undefined }] : [];
          });
    for (const req of requests) if (req.method === "initialize") this.calls.noteInitialize(req.params);
    // Any call a level refuses keeps the whole frame (a batch too) from the server at that level.
    const reaches: Record<RebuiltLevel, boolean> = { enforce: true, strict: true };
    const alone = read.kind === "parsed" && read.members === undefined && read.calls.length === 1;
    for (const call of read.calls) {
      const refused = this.calls.judge(file, line, r.t, call, alone);
      for (const level of REBUILT_LEVELS) if (refused[level]) reaches[level] = false;
    }
    this.track(requests, frame, reaches);
    this.answers.claimEarly(requests);
  }

  private track(
    requests: readonly ClientRequest[],
    frame: number,
    reaches: Record<RebuiltLevel, boolean>,
  ): void {
    for (const req of requests)
      this.matcher.request(idKey("c2s", req.id), {
        method: req.method,
        params: req.params,
        frame,
        stopped: false,
        reaches: { ...reaches },
      });
  }

  private serverFrame(r: FrameLike): void {
    const logged = loggedText(r);
    if (!logged) return;
    if (this.matcher.marksOwn && r.by === "effectgate") return this.own(logged.text);
    if (!logged.whole) return this.headOnly(logged.text);
    const parsed = parseFrame(logged.text);
    if (!parsed) return;
    for (const m of parsed.messages) {
      if (m.kind === "notification" || m.kind === "request") {
        // What a server tells the user or the model outside an answer is scanned as the relay
        // scans it. Legacy: effectgate's own question (its `ask` event came first) and the cancel
        // of one it stopped waiting for are not the server's.
        if (!this.matcher.marksOwn && this.legacyOwnMessage(m)) continue;
        const seen = serverMessageAsAnswer(m.method, m.params);
        if (seen !== undefined)
          for (const level of REBUILT_LEVELS) this.judges[level].observe(seen.request, seen.response);
        continue;
      }
      if (m.kind !== "response") continue;
      const key = idKey("c2s", m.id);
      const sent = this.matcher.answer(key);
      this.answers.hear(key, m.body, sent);
    }
  }

  /** A frame effectgate wrote (marked log): its answers close their calls, and reach no judge. */
  private own(text: string): void {
    for (const m of parseFrame(text)?.messages ?? [])
      if (m.kind === "response") this.matcher.answer(idKey("c2s", m.id));
  }

  /** An answer over 16 MiB: only its head is logged, so the judge cannot be shown it. */
  private headOnly(head: string): void {
    const id = idFromText(head);
    const sent = id === undefined ? undefined : this.matcher.answer(idKey("c2s", id));
    if (!sent) return;
    if (!sent.stopped && JUDGED_METHODS.has(sent.method)) this.counts.answers.tooLarge += 1;
  }

  private event(r: EventLike): void {
    const d = r.data;
    switch (r.ev) {
      case "decision": {
        if (this.matcher.marksOwn) return;
        const id = decisionId(d["id"]);
        if (typeof d["outcome"] === "string" && REFUSING_OUTCOMES.has(d["outcome"]) && id !== undefined)
          this.stop(id);
        return;
      }
      case "refused":
      case "refusal": {
        // A marked log shows effectgate's answers themselves (`by`): the legacy path reads this.
        if (this.matcher.marksOwn) return;
        const frames = new Set<number>();
        for (const call of refusedCalls(d)) if (call.id !== undefined) frames.add(this.stop(call.id));
        // A batch is refused whole: every request in it is answered by effectgate.
        if (d["batch"] === true)
          for (const sent of this.matcher.requests()) if (frames.has(sent.frame)) sent.stopped = true;
        return;
      }
      case "pin": {
        const id = decisionId(d["id"]);
        if (d["kind"] === "call" && id !== undefined) this.stop(id);
        return;
      }
      case "ask":
        if (!this.matcher.marksOwn && typeof d["id"] === "string") this.asks.add(d["id"]);
        return;
      case "taint":
        // A rug-pull is found against the lock, which eval does not have: the relay's record is
        // the fact, and a tool list reaches the session at every level.
        if (d["reason"] === "rug-pull") for (const level of REBUILT_LEVELS) this.judges[level].taint();
        return;
      case "answer-dropped": {
        const id = decisionId(d["id"]);
        if (id !== undefined) this.answers.dropped(id);
        return;
      }
    }
  }

  /** Legacy: a question effectgate asked the client, or its cancellation (logged as s2c). */
  private legacyOwnMessage(
    m: { kind: "notification" | "request"; method: string; params: unknown } & { id?: unknown },
  ): boolean {
    if (m.kind === "request") return typeof m.id === "string" && this.asks.has(m.id);
    const p = m.params;
    return (
      m.method === "notifications/cancelled" &&
      isRecord(p) &&
      typeof p["requestId"] === "string" &&
      this.asks.has(p["requestId"])
    );
  }

  /** The latest call with this id never reached the server; returns its frame (-1: none logged). */
  private stop(id: JsonRpcId): number {
    const key = idKey("c2s", id);
    const sent = this.matcher.waitingFor(key);
    if (sent) {
      sent.stopped = true;
      return sent.frame;
    }
    // Its frame could not be read, but effectgate's answer will come: it is nobody's tool output.
    this.matcher.request(key, {
      method: "tools/call",
      params: undefined,
      frame: -1,
      stopped: true,
      reaches: { enforce: false, strict: false },
    });
    return -1;
  }
}
