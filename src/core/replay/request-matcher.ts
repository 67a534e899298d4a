// The one pairing of requests with their answers in a session log, for every reader of logs:
// replay's transcript, and eval's rebuild (which status uses too). Each reader keeps its own
// request (`R`) and answer (`A`) shapes; the rules of pairing are here, once (issue 18).
//
// - A request waits under its key (`idKey` of its direction and id) until an answer takes it.
// - In pass-through (observe, checks off) the server may answer a call before the call's frame
//   is logged: an answer to no waiting request is parked until the next client frame, which
//   claims it when it holds a request with that id (decision 0065). Whatever is not claimed
//   answers no request.
// - Which answers effectgate wrote itself: a log whose header has `marksOwn` says so with `by`
//   on each such frame (decision 0112). An older log does not; its legacy reading is that the
//   first s2c frame after a refusal is effectgate's answer to the refused call (decision 0064).

/** One answer the next client frame claimed, with the request it answers. */
export interface Claimed<R, A> {
  request: R;
  answer: A;
}

export class RequestMatcher<R, A> {
  private readonly waiting = new Map<string, R>();
  private readonly early = new Map<string, A>();
  /** Legacy logs: refused calls whose answer, by effectgate, is the next s2c frame. */
  private readonly refusedNext = new Set<string>();

  /** The log says which frames effectgate wrote (its header has `marksOwn`). */
  marksOwn = false;

  /** A request is sent: it waits for its answer (a later request under its key replaces it). */
  request(key: string, request: R): void {
    this.waiting.set(key, request);
  }

  /** The request waiting under `key`, left waiting. */
  waitingFor(key: string): R | undefined {
    return this.waiting.get(key);
  }

  /** The request an answer under `key` answers: it stops waiting. */
  answer(key: string): R | undefined {
    const request = this.waiting.get(key);
    this.waiting.delete(key);
    return request;
  }

  /**
   * An answer turned out not to be the request's (dropped, or for a refused call): it waits
   * again, unless a request already waits under its key. Says whether it does now.
   */
  waitAgain(key: string, request: R): boolean {
    if (this.waiting.has(key)) return false;
    this.waiting.set(key, request);
    return true;
  }

  /** Every request still waiting, oldest first. */
  requests(): IterableIterator<R> {
    return this.waiting.values();
  }

  /**
   * An answer no request waits for. In pass-through it is parked for the next client frame;
   * returned is the answer that now answers no request: this one when not in pass-through, else
   * the one parked under the same key before it, if any.
   */
  noRequest(key: string, answer: A, passThrough: boolean): A | undefined {
    if (!passThrough) return answer;
    const before = this.early.get(key);
    this.early.set(key, answer);
    return before;
  }

  /**
   * A client frame holding requests under `keys` was read: each parked answer under one of them
   * is that request's answer. The answers it claims are returned with their requests, in the
   * frame's order; `unclaimed` drains the rest.
   */
  claim(keys: Iterable<string>): Claimed<R, A>[] {
    const out: Claimed<R, A>[] = [];
    for (const key of keys) {
      const answer = this.early.get(key);
      const request = this.waiting.get(key);
      if (answer === undefined || request === undefined) continue;
      this.early.delete(key);
      this.waiting.delete(key);
      out.push({ request, answer });
    }
    return out;
  }

  /** Parked answers no client frame claimed: they answer no request. Nothing stays parked. */
  unclaimed(): A[] {
    const out = [...this.early.values()];
    this.early.clear();
    return out;
  }

  /** Effectgate refused the call under `key`: in a legacy log its answer is the next s2c frame. */
  refused(key: string): void {
    this.refusedNext.add(key);
  }

  /**
   * Whether an s2c answer under `key` is effectgate's own: `by` in a marked log; in a legacy log,
   * whether it is the first s2c frame since the call's refusal.
   */
  ownAnswer(key: string, by: string | undefined): boolean {
    const followsRefusal = this.refusedNext.delete(key);
    return this.marksOwn ? by === "effectgate" : followsRefusal;
  }

  /** An s2c frame was read: a refused call's answer was in it or is lost (legacy reading). */
  serverFrameRead(): void {
    this.refusedNext.clear();
  }
}
