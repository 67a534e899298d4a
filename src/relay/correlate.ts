/**
 * Matches server responses to the client requests they answer, by (direction, id) with the
 * id's JSON type kept (`1` ≠ `"1"`). Results that arrive later are followed back to the call
 * that caused them: a task's `tasks/result` (CreateTaskResult `result.task.taskId`) and a
 * 2026-07-28 retry after `input_required` (same `requestState`, new id).
 *
 * Clients are laxer than the protocol: the TypeScript SDK looks a response up by
 * `Number(response.id)`, so `"1"`, `"01"` or `"0x1"` answers its request 1. A response that
 * answers no request exactly but one loosely (looseIdKey) is therefore still shown to the gate as
 * that request's answer, or a server could slip a changed tool list or a tainting result past
 * the checks. The request stays pending for its exact answer.
 */
import { isRecord } from "../core/jsonrpc.js";
import type { JsonRpcId } from "../core/types.js";

export interface SentRequest {
  method: string;
  id: JsonRpcId;
  params: unknown;
}

interface Pending {
  request: SentRequest;
  /** The call this request continues (tasks/result, MRTR retry); the request itself otherwise. */
  origin: SentRequest;
}

/** Keeps the tables from growing without bound when a peer never answers. */
const MAX_TRACKED = 10_000;

export function idKey(id: JsonRpcId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

/** The key under which a lax client could take `id` for another: JavaScript's `==` on ids. */
export function looseIdKey(id: JsonRpcId): string {
  const n = Number(id);
  return Number.isFinite(n) ? `n:${n}` : `s:${id}`;
}

/** What a server response answers. */
export interface Answered {
  /** The requests to show it to the gate as the answer of: one when exact, any number when loose. */
  answers: Pending[];
  /** No request has this exact id; `answers` are those a lax client could match it to. */
  loose: boolean;
}

export class Correlator {
  private readonly pending = new Map<string, Pending>();
  /** looseIdKey → the idKeys of pending requests that share it. */
  private readonly byLoose = new Map<string, Set<string>>();
  private readonly tasks = new Map<string, SentRequest>();
  private readonly retries = new Map<string, SentRequest>();

  get size(): number {
    return this.pending.size;
  }

  /** A client request about to reach the server. */
  sent(request: SentRequest): void {
    const origin = this.originOf(request) ?? request;
    const key = idKey(request.id);
    this.forget(key);
    this.pending.set(key, { request, origin });
    const loose = looseIdKey(request.id);
    const same = this.byLoose.get(loose);
    if (same) same.add(key);
    else this.byLoose.set(loose, new Set([key]));
    if (this.pending.size > MAX_TRACKED) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
  }

  /** Forget a request the server will never see (it was refused). */
  drop(id: JsonRpcId): void {
    this.forget(idKey(id));
  }

  private forget(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    const loose = looseIdKey(p.request.id);
    const same = this.byLoose.get(loose);
    same?.delete(key);
    if (same?.size === 0) this.byLoose.delete(loose);
  }

  /** A server response: the request it answers, or those it could be taken to answer. */
  answered(id: JsonRpcId, response: Record<string, unknown>): Answered {
    const key = idKey(id);
    const found = this.pending.get(key);
    if (!found) {
      const keys = [...(this.byLoose.get(looseIdKey(id)) ?? [])];
      return { answers: keys.map((k) => this.pending.get(k) as Pending), loose: true };
    }
    this.forget(key);
    const result = response.result;
    if (isRecord(result)) {
      const task = result.task;
      if (isRecord(task) && typeof task.taskId === "string" && found.origin.method === "tools/call") {
        remember(this.tasks, task.taskId, found.origin);
      }
      if (result.resultType === "input_required" && typeof result.requestState === "string") {
        remember(this.retries, result.requestState, found.origin);
      }
    }
    return { answers: [found], loose: false };
  }

  private originOf(request: SentRequest): SentRequest | undefined {
    if (!isRecord(request.params)) return undefined;
    if (request.method === "tasks/result" && typeof request.params.taskId === "string") {
      return this.tasks.get(request.params.taskId);
    }
    if (typeof request.params.requestState === "string") {
      const origin = this.retries.get(request.params.requestState);
      if (origin && origin.method === request.method) return origin;
    }
    return undefined;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_TRACKED) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}
