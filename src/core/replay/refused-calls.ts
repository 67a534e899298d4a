/**
 * What replay keeps about the calls effectgate refused, which never reached the server: which
 * records named each refusal (a `decision` and the `refused` event repeat each other), the
 * server answer logged before a refusal that must be taken back, and the ids a later server
 * answer reuses without the server having had the call (UNASKED).
 */
import type { JsonRpcId } from "../types.js";
import { firstText, idKey, isRecord } from "./messages.js";
import type { RequestMatcher } from "./request-matcher.js";
import type { ReplayItem } from "./replay-item.js";
import type { CallRecord, SessionSummary } from "./summary.js";

/** A request waiting for its answer, as replay shows it. */
export interface Pending {
  method: string;
  tool: string | undefined;
  at: number;
  params: unknown;
  /** The summary's record of it, for a client's tools/call. */
  call?: CallRecord;
}

export class RefusedCalls {
  /**
   * The tools/call records of the last client frame that held requests (or could not be read):
   * a refusal that names no usable id, or an id its frame did not show, is about one of them.
   */
  private clientCalls: CallRecord[] = [];
  /** Ids a `decision` refused since the last client frame: the `refused` event repeats them. */
  private readonly decided = new Set<string>();
  /** Refused calls (never sent to the server), until the client reuses the id for a new call. */
  private readonly neverSent = new Map<string, Pending | null>();
  /** The server answer that matched each call, to take it back if the call turns out refused. */
  private readonly answeredBy = new Map<
    string,
    { item: ReplayItem; req: Pending; body: Record<string, unknown> }
  >();
  /** Each call's request line, to mark it when the call turns out refused. */
  private readonly callItems = new Map<CallRecord, ReplayItem>();

  constructor(
    private readonly matcher: RequestMatcher<Pending, ReplayItem>,
    private readonly summary: SessionSummary,
  ) {}

  /** A client frame with requests (or unreadable) begins: refusals now name its calls. */
  newClientFrame(): void {
    this.clientCalls = [];
  }

  /** A client frame was read: the next `decision` starts a new round of records. */
  clientFrameRead(): void {
    this.decided.clear();
  }

  /** A client's tools/call, and its request line. */
  called(call: CallRecord, item: ReplayItem): void {
    this.clientCalls.push(call);
    this.callItems.set(call, item);
  }

  /** A new request under `key`: a refused call's id may well be sent and answered now. */
  reused(key: string): void {
    this.neverSent.delete(key);
    this.answeredBy.delete(key);
  }

  /** Whether the call under `key` was refused and its id not used since. */
  neverReached(key: string): boolean {
    return this.neverSent.has(key);
  }

  /** The server's answer matched the call under `key` (taken back if the call turns out refused). */
  answered(key: string, item: ReplayItem, req: Pending, body: Record<string, unknown>): void {
    this.answeredBy.set(key, { item, req, body });
  }

  /** A server answer to the refused call under `key`, which the server never received. */
  markUnasked(item: ReplayItem, body: Record<string, unknown>, key: string): void {
    unasked(item, body, this.neverSent.get(key) ?? undefined);
  }

  /**
   * A refusal record names a call effectgate answered itself. Returns whether it is the first
   * record to say so (the `refused` event repeats what a `decision` said). The call is the
   * latest one with that id still waiting; else, when the id is unusable (`""`, null) or its
   * frame could not be read, one of the last client frame's calls that this kind of record has
   * not named yet; else a call known only from the refusal, counted all the same.
   */
  refusedCall(
    id: JsonRpcId | undefined,
    by: "decision" | "event",
    method: string | undefined,
    tool: string | undefined,
  ): boolean {
    const key = id === undefined ? undefined : idKey("c2s", id);
    if (key !== undefined) this.takeBack(key);
    const open = (c: CallRecord | undefined): c is CallRecord =>
      c !== undefined && c.outcome === undefined && c.refused?.[by] === undefined;
    const byId = key === undefined ? undefined : this.summary.call(key);
    // Named again by a record of the same kind (an id listed twice): one refusal, said once.
    if (byId !== undefined && byId.outcome === undefined && byId.refused?.[by] !== undefined) return false;
    let call = open(byId)
      ? byId
      : this.clientCalls.find((c) => open(c) && (key === undefined || c.key === undefined));
    const calledTools = (method ?? "tools/call") === "tools/call";
    if (!call && calledTools) {
      call = this.summary.noteCall(key, tool ?? "(frame not readable)");
      this.clientCalls.push(call);
    }
    if (call && key !== undefined && call.key === undefined) this.summary.setKey(call, key);
    if (key !== undefined && id !== undefined) {
      if (call)
        this.matcher.waitAgain(key, {
          method: method ?? "tools/call",
          tool: call.tool,
          at: NaN,
          params: undefined,
          call,
        });
      this.refusing(id);
    }
    // Methods other than tools/call have no call record: the id says whether it was said already.
    const first = call ? call.refused === undefined : key === undefined || !this.decided.has(key);
    if (call) {
      call.refused = { ...call.refused, [by]: true };
      const request = this.callItems.get(call);
      if (request) request.refused = true;
    }
    if (key !== undefined && by === "decision") this.decided.add(key);
    return first;
  }

  /**
   * Effectgate refused `id`: its answer is the next s2c frame. A server answer logged before the
   * refusal (between the call and its judgement) answered a call the server never received:
   * it is marked as such, and the call waits for effectgate's answer again.
   */
  private refusing(id: JsonRpcId): void {
    const key = idKey("c2s", id);
    this.matcher.refused(key);
    this.takeBack(key);
    this.neverSent.set(key, this.matcher.waitingFor(key) ?? null);
  }

  /** A server answer to a call that turns out refused was not its answer: the call waits again. */
  private takeBack(key: string): void {
    const early = this.answeredBy.get(key);
    this.answeredBy.delete(key);
    if (early && this.matcher.waitAgain(key, early.req)) {
      unasked(early.item, early.body, early.req);
      if (early.req.call) delete early.req.call.outcome;
    }
  }
}

/**
 * Mark a server answer to a call effectgate refused, which never reached the server: a forged
 * or guessed answer, shown with what it said (a plain result says nothing otherwise).
 */
function unasked(item: ReplayItem, body: Record<string, unknown>, req: Pending | undefined): void {
  item.marker = "UNASKED";
  if (req) {
    item.answers = req.method;
    if (req.tool !== undefined) item.tool = req.tool;
  }
  delete item.latencyMs;
  const result = body["result"];
  if (item.detail === undefined && isRecord(result)) {
    const text = firstText(result);
    if (text !== undefined) item.detail = text;
  }
}
