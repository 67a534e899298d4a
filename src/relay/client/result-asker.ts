/**
 * Asking a 2026-07-28 client in its chat: the question goes back as the held call's result
 * (`input_required`), and the answer comes with the client's retry. The state it carries is
 * sealed under a key made when this process starts (src/core/gate/request-state.ts); each one is
 * good for one retry, which this class enforces by keeping the nonces it issued
 * (docs/decisions/0123-asking-in-the-result.md).
 */
import { randomBytes } from "node:crypto";
import type { AskHow, AskReply, HeldRequest } from "../../core/gate/gate.js";
import { readApproval, type Remember } from "../../core/gate/approval-form.js";
import {
  inputRequiredResult,
  serverInputOf,
  splitRetry,
  type ServerInput,
} from "../../core/gate/input-required.js";
import { callDigest, isOurState, openState, sealState } from "../../core/gate/request-state.js";
import { isRecord } from "../../core/wire/jsonrpc.js";

/** Questions kept at most; the oldest is forgotten first (its retry is then a no). */
const MAX_OPEN = 1024;

/** A call that carries effectgate's state: what is judged and sent, and how its answer reads. */
export interface RetryOfOurs {
  /** The retry as the gate judges it and the server would get it. */
  held: HeldRequest;
  /** The user's reply, given the effect key the judge finds for the retry now. */
  reply(effect: string | undefined): { reply: AskReply; how: AskHow; remember?: Remember };
}

export class ResultAsker {
  private readonly secret = randomBytes(32);
  private readonly open = new Map<string, { expires: number; server: ServerInput }>();

  constructor(
    private readonly ttlMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The result that asks about `held`, whose effect key is `effect`. */
  question(held: HeldRequest, text: string, effect: string): Record<string, unknown> {
    const t = this.now();
    for (const [nonce, q] of this.open) if (q.expires <= t) this.open.delete(nonce);
    const oldest = this.open.keys().next();
    if (this.open.size >= MAX_OPEN && oldest.done !== true) this.open.delete(oldest.value);
    const nonce = randomBytes(16).toString("hex");
    const expires = t + this.ttlMs();
    this.open.set(nonce, { expires, server: serverInputOf(held.params) });
    const state = sealState(this.secret, {
      nonce,
      effect,
      call: callDigest(held.method, held.params),
      expires,
    });
    return inputRequiredResult(text, state);
  }

  /** The retry of a question this relay put, or undefined when the call carries no state of ours. */
  retryOf(held: HeldRequest): RetryOfOurs | undefined {
    const params = held.params;
    if (!isRecord(params) || !isOurState(params["requestState"])) return undefined;
    const { answer, rest } = splitRetry(params);
    const opened = openState(this.secret, params["requestState"], this.now());
    let why: string | undefined;
    let server: ServerInput = {};
    let effect: string | undefined;
    if (!opened.ok) why = opened.why;
    else {
      const q = this.open.get(opened.claims.nonce);
      // Used once, whatever the answer: a replayed state is a no.
      this.open.delete(opened.claims.nonce);
      if (q === undefined) why = "the request state was already used";
      else if (opened.claims.call !== callDigest(held.method, rest))
        why = "the retry does not repeat the call that was asked about";
      else {
        server = q.server;
        effect = opened.claims.effect;
      }
    }
    const channel = { channel: "input_required" } as const;
    return {
      held: { ...held, params: { ...rest, ...server } },
      reply: (now) => {
        if (why !== undefined) return { reply: "failed", how: { ...channel, why } };
        if (now !== effect)
          return {
            reply: "failed",
            how: { ...channel, why: "what the call would do changed since the question" },
          };
        const a = readApproval(answer);
        return {
          reply: a.answer,
          how: { ...channel, ...(a.why !== undefined ? { why: a.why } : {}) },
          ...(a.remember !== undefined ? { remember: a.remember } : {}),
        };
      },
    };
  }
}
