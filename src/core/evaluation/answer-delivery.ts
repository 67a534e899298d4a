// Where a logged answer goes in a rebuilt session (session-rebuild.ts): to the judge of each
// level that sent its call to the server, to none when the call never reached the server, and
// to both as content of unknown origin when it answers no request (decision 0066), unless the
// log shows the relay dropping it. An answer is heard at its frame and settled at the next record
// that is not an event, since an `answer-dropped` event may follow it.
import type { SessionJudgeApi } from "../gate/session-judge.js";
import type { RequestMatcher } from "../replay/request-matcher.js";
import { idKey } from "../replay/messages.js";
import type { JsonRpcId } from "../types.js";
import type { ClientRequest } from "../wire/client-frame.js";
import { JUDGED_METHODS } from "../wire/judged-methods.js";
import { type Counts, REBUILT_LEVELS, type RebuiltLevel } from "./counts.js";

/** A request the log shows the client sending, until its answer. */
export interface Sent {
  method: string;
  params: unknown;
  /** Which client frame it came in (a batch refused whole refuses all of it). */
  frame: number;
  /**
   * Its answer reaches no judge. A `pin` call event says so in every log (at observe: the pin
   * gate failed it, so enforce, with that lock, refuses it). In a legacy log (no `marksOwn`) a
   * `refused` event or a `decision` that refused says so too: effectgate answered it itself.
   */
  stopped: boolean;
  /** Whether the rebuilt session at each level sends it to the server. */
  reaches: Record<RebuiltLevel, boolean>;
}

export type Answer = Record<string, unknown>;

/** Stands for the request of an answer that answers none, as in the relay (decision 0066). */
const NO_REQUEST = { method: "(no request)", params: undefined };

/**
 * A server answer read from the log, settled at the next record that is not an event: an
 * `answer-dropped` event right after its frame says the client never got it.
 */
interface Heard {
  key: string;
  body: Answer;
  /** The call it answers; none: an answer to no request. */
  sent?: Sent;
}

export class AnswerDelivery {
  /** Early answers whose call the next client frame turned out to be, delivered after its events. */
  private claimed: { sent: Sent; body: Answer }[] = [];
  private heard: Heard[] = [];

  constructor(
    private readonly matcher: RequestMatcher<Sent, Answer>,
    private readonly judges: Record<RebuiltLevel, SessionJudgeApi>,
    private readonly counts: Counts,
    private readonly opts: { passThrough: boolean },
  ) {}

  /** A server answer read from its frame, with the call it answers if one was waiting. */
  hear(key: string, body: Answer, sent: Sent | undefined): void {
    this.heard.push({ key, body, ...(sent ? { sent } : {}) });
  }

  /**
   * At observe the server reads a call's first bytes while the rest is still crossing, and may
   * answer before the call's frame is logged; the client takes that answer as the call's. An
   * answer with no pending call is therefore matched with the next client frame when that frame
   * is a request with its id (enforce, which sends only whole judged calls, would have seen the
   * answer after the call). Any other is an answer with no matching request.
   */
  claimEarly(requests: readonly ClientRequest[]): void {
    const keys = requests.map((req) => idKey("c2s", req.id));
    for (const { request: sent, answer: body } of this.matcher.claim(keys)) this.claimed.push({ sent, body });
    this.unclaimed();
  }

  /** Early answers no client frame claimed: answers to no request. */
  unclaimed(): void {
    for (const body of this.matcher.unclaimed()) this.answerToNothing(body);
  }

  private answerToNothing(body: Answer): void {
    this.counts.answers.noRequest += 1;
    for (const level of REBUILT_LEVELS) this.judges[level].observe(NO_REQUEST, body);
  }

  settleHeard(): void {
    for (const h of this.heard) {
      if (h.sent) this.deliver(h.sent, h.body);
      else {
        // At observe its call may still be crossing: the next client frame may claim it.
        const lost = this.matcher.noRequest(h.key, h.body, this.opts.passThrough);
        if (lost !== undefined) this.answerToNothing(lost);
      }
    }
    this.heard = [];
  }

  /** The relay dropped this answer (a guess at a held or refused call's id): nobody read it. */
  dropped(id: JsonRpcId): void {
    const key = idKey("c2s", id);
    const i = this.heard.findIndex((h) => h.key === key);
    if (i < 0) return;
    const [h] = this.heard.splice(i, 1);
    // The call it pretended to answer is still waiting for the server's real answer.
    if (h?.sent) this.matcher.waitAgain(key, h.sent);
  }

  deliverClaimed(): void {
    for (const { sent, body } of this.claimed) {
      this.counts.answers.early += 1;
      this.deliver(sent, body);
    }
    this.claimed = [];
  }

  private deliver(sent: Sent, body: Answer): void {
    if (sent.stopped || !JUDGED_METHODS.has(sent.method)) return;
    for (const level of REBUILT_LEVELS)
      if (sent.reaches[level]) this.judges[level].observe({ method: sent.method, params: sent.params }, body);
  }
}
