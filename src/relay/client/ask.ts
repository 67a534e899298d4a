/**
 * Asking the user through the client in a legacy session: a form-mode `elicitation/create` with
 * the approval form (src/core/gate/approval-form.ts; docs/decisions/0057-ask-ids-and-timeouts.md).
 *
 * Our requests share the server→client id space as far as the client can tell, so the server
 * must not be able to name one of our ids: a server that sent its own question under our next
 * id would have the user's answer to it credited as approval of ours. Each id carries a random
 * session nonce and a random per-ask part. A client frame that carries the nonce is effectgate's:
 * it is credited only as the answer to an ask still open under exactly that id, and it never
 * reaches the server (a stray, late, repeated or malformed answer is dropped, and a malformed
 * one ends the ask it names as a refusal). Every ask ends by itself after a timeout.
 */
import { randomBytes } from "node:crypto";
import { isRecord } from "../../core/wire/jsonrpc.js";
import { parseStrictJson } from "../../core/json/strict-json.js";
import { askTimeoutMs } from "../session/constants.js";
import { approvalForm, readApproval, type Approval } from "../../core/gate/approval-form.js";

const ASK_ID_PREFIX = "effectgate-ask-";

interface Open {
  resolve: (a: Approval) => void;
  timer: NodeJS.Timeout;
}

export class Asker {
  private n = 0;
  /** Every id of this session starts with this; nobody outside effectgate and the client sees it. */
  private readonly prefix = `${ASK_ID_PREFIX}${randomBytes(12).toString("hex")}-`;
  private readonly prefixBytes = Buffer.from(this.prefix);
  private readonly open = new Map<string, Open>();

  constructor(
    /** Writes one line (without terminator) to the client. */
    private readonly send: (line: string) => void,
    private readonly record: (ev: string, data: Record<string, unknown>) => void,
    /** Read when the first question is put: with the checks off nothing asks, and nothing is read. */
    private readonly setTimeoutMs?: number,
  ) {}

  private get timeoutMs(): number {
    return this.setTimeoutMs ?? askTimeoutMs(process.env);
  }

  get pending(): boolean {
    return this.open.size > 0;
  }

  /**
   * Resolves with the user's answer; a "cancel" when nobody answered within the timeout, or when
   * `signal` aborts (the client cancelled the call the question is about).
   */
  ask(message: string, onTimeout?: (seconds: number) => void, signal?: AbortSignal): Promise<Approval> {
    // The per-ask random part keeps the next id unguessable even if this one leaked.
    const id = `${this.prefix}${++this.n}-${randomBytes(6).toString("hex")}`;
    const frame = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "elicitation/create",
      params: approvalForm(message),
    });
    // Tell the client to drop the question; an answer that comes later is dropped too.
    const withdraw = (reason: string): void =>
      this.send(
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason },
        }),
      );
    return new Promise((resolve) => {
      if (signal?.aborted === true) return resolve(cancelled("the client cancelled the call"));
      const timer = setTimeout(() => {
        const seconds = Math.round(this.timeoutMs / 100) / 10;
        if (!this.settle(id, cancelled(`no answer within ${seconds} s`))) return;
        withdraw(`effectgate stopped waiting after ${seconds} s`);
        onTimeout?.(seconds);
      }, this.timeoutMs);
      this.open.set(id, { resolve, timer });
      this.record("ask", { id, message, timeoutMs: this.timeoutMs });
      this.send(frame);
      signal?.addEventListener(
        "abort",
        () => {
          if (this.settle(id, cancelled("the client cancelled the call")))
            withdraw("the client cancelled the call");
        },
        { once: true },
      );
    });
  }

  /** Whether `id` is one effectgate issued in this session (open, answered or timed out). */
  owns(id: unknown): boolean {
    return typeof id === "string" && id.startsWith(this.prefix);
  }

  /** Cheap test before parsing: does this client frame carry one of our ids? */
  mentioned(bytes: Buffer): boolean {
    return this.n > 0 && bytes.includes(this.prefixBytes);
  }

  /**
   * A client frame that carries one of our ids: returns false when it is the client's own
   * request or notification (which merely quotes the text; it goes on to be judged), else takes
   * it: the answer to an open ask is credited, anything else is dropped, and an open ask it names
   * but cannot answer (duplicate keys, not an object, a batch) ends as a refusal. A frame taken
   * says whether it is valid JSON, for the log: bytes that are not must never be written as raw
   * JSON into a record.
   */
  take(bytes: Buffer): false | { json: boolean } {
    const text = bytes.toString("utf8");
    const parsed = parseStrictJson(text);
    if (parsed.ok) {
      const v = parsed.value;
      const isCall = (m: unknown): boolean => isRecord(m) && "method" in m;
      if (isCall(v) || (Array.isArray(v) && v.length > 0 && v.every(isCall))) return false;
      if (isRecord(v) && this.takeAnswer(v)) return { json: true };
    }
    const why = parsed.ok ? "not an answer to an open question" : `unreadable (${parsed.error})`;
    let ended = 0;
    for (const id of [...this.open.keys()])
      if (text.includes(JSON.stringify(id)) && this.settle(id, cancelled(`a malformed answer: ${why}`)))
        ended++;
    if (ended === 0) this.record("ask-answer-dropped", { why });
    // Duplicate keys or deep nesting fail the strict parse but are still JSON.
    return { json: parsed.ok || isJson(text) };
  }

  /**
   * A parsed response with one of our ids: credited when its ask is open, else dropped. Returns
   * false when the id is not ours.
   */
  takeAnswer(msg: Record<string, unknown>): boolean {
    if (!this.owns(msg.id)) return false;
    const id = msg.id as string;
    if (!this.settle(id, answerOf(msg)))
      this.record("ask-answer-dropped", { id, why: "not an answer to an open question" });
    return true;
  }

  /** The client went away: nobody will answer. */
  cancelAll(): void {
    for (const id of [...this.open.keys()]) this.settle(id, cancelled("the client closed its side"));
  }

  private settle(id: string, approval: Approval): boolean {
    const open = this.open.get(id);
    if (!open) return false;
    this.open.delete(id);
    clearTimeout(open.timer);
    this.record("ask-answer", {
      id,
      answer: approval.answer,
      ...(approval.why === undefined ? {} : { why: approval.why }),
    });
    open.resolve(approval);
    return true;
  }
}

const cancelled = (why: string): Approval => ({ answer: "cancel", why });

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function answerOf(msg: Record<string, unknown>): Approval {
  // An error response: the client could not ask.
  if ("error" in msg) return cancelled("the client answered with an error");
  return readApproval(msg.result);
}
