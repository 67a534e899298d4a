// What the parts of the client side share: their deps, the requests held or answered here, and forwarding.
import type { Gate, HeldRequest } from "../../core/gate/gate.js";
import type { ClientRequest } from "../../core/wire/client-frame.js";
import type { OutOfBand } from "./ask-store.js";
import type { Asker } from "./ask.js";
import type { Correlator } from "../server/correlate.js";
import type { ByteSink, Holdable } from "../session/flow.js";
import type { SessionFacts } from "../session/handshake.js";
import type { Lane } from "../session/lane.js";
import { writeOn, type SeenFrame } from "../session/seen-frame.js";
import type { RelayLog, RelayStats } from "../session/types.js";
import { askTimeoutMs } from "../session/constants.js";
import { ResultAsker } from "./result-asker.js";

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

export class ClientContext {
  /** Requests (idKey) effectgate answered itself or dropped: the client's cancel of one goes no further. */
  readonly refusedIds = new Set<string>();
  queueHeld = false;
  /** The frame being handled: `done` once its bytes went on or it was answered. */
  inFlight: { done: boolean } | undefined;
  /**
   * Requests (idKey) the client cancelled while they waited here, being judged or asked about or
   * queued behind such a call: they are never sent (the cancel comes through the lane after them).
   */
  readonly cancelledAhead = new Set<string>();
  /** Held requests being judged, each with a way to end its question when the client cancels it. */
  readonly judging = new Map<string, AbortController>();
  /** 2026-07-28 questions put in the call's result, and their retries (decision 0123). */
  readonly inResult = new ResultAsker(() => askTimeoutMs(process.env));
  /** Effect keys the user allowed for the rest of this session (decision 0124). */
  readonly sessionYes = new Set<string>();
  /** Calls (idKey) judged alone in their frame: only these can be asked in their result. */
  readonly alone = new Set<string>();
  /** A call answered with a question instead of a refusal, or a retry sent with other params. */
  readonly instead = new Map<string, { question?: Record<string, unknown>; params?: unknown }>();

  constructor(readonly d: ClientSideDeps) {}

  releaseQueueHold(): void {
    if (!this.queueHeld) return;
    this.queueHeld = false;
    this.d.flow.release();
  }

  trackAll(requests: readonly ClientRequest[]): void {
    for (const r of requests) this.track(r.method, r.id, r.params);
  }

  track(method: string, id: HeldRequest["id"], params: unknown): void {
    if (this.d.gate?.observe || method === "initialize" || method === "server/discover")
      this.d.correlator.sent({ method, id, params });
  }

  forward(frame: SeenFrame): void {
    if (this.inFlight) this.inFlight.done = true;
    this.d.stats.forwarded++;
    // In pass-through the bytes have already gone on.
    if (!this.d.passThrough) writeOn(frame, this.d.toServer);
  }
}
