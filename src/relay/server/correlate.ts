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
 * the checks. The request stays pending for its exact answer. The Python SDK is lax another way
 * (pydantic reads ids as `int | str`, so `"1_0"` is 10 and `true` is 1): pythonIdKey.
 *
 * Requests the relay holds (being judged, or asked about) and requests it refused are known here
 * too: the server never saw them, so no answer it sends may carry their ids (blockedBy).
 */
import { isRecord } from "../../core/wire/jsonrpc.js";
import type { JsonRpcId } from "../../core/types.js";

export interface SentRequest {
  method: string;
  id: JsonRpcId;
  params: unknown;
}

export interface Pending {
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

/**
 * The key under which the official Python SDK could take `id` for an integer request id, when
 * that differs from looseIdKey: pydantic's lax `int` reads `true` as 1, `false` as 0, and digits
 * with underscores between them (`"1_0"`, Python's int syntax) as the number.
 */
export function pythonIdKey(id: unknown): string | undefined {
  if (typeof id === "boolean") return `n:${id ? 1 : 0}`;
  if (typeof id !== "string" || !/\d_\d/.test(id)) return undefined;
  const n = Number(id.replace(/(?<=\d)_(?=\d)/g, ""));
  return Number.isFinite(n) ? `n:${n}` : undefined;
}

/** Every key under which some client could take `id` for a request's id. */
export function looseIdKeys(id: unknown): string[] {
  const keys: string[] = [];
  if (typeof id === "string" || typeof id === "number") keys.push(looseIdKey(id));
  const py = pythonIdKey(id);
  if (py !== undefined && !keys.includes(py)) keys.push(py);
  return keys;
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
  /** looseIdKey → how many requests under it are held (judged or asked about, not yet sent). */
  private readonly held = new Map<string, number>();
  /** looseIdKeys of requests the relay answered itself; insertion-ordered, bounded. */
  private readonly refusedKeys = new Set<string>();

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

  /** Whether a request is held or was refused: the server must not be able to answer it. */
  get holding(): boolean {
    return this.held.size > 0 || this.refusedKeys.size > 0;
  }

  /** A client request the relay holds while it is judged (or asked about): not sent yet. */
  hold(id: JsonRpcId): void {
    const key = looseIdKey(id);
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
  }

  /** The held request was sent or answered by the relay. */
  release(id: JsonRpcId): void {
    const key = looseIdKey(id);
    const left = (this.held.get(key) ?? 0) - 1;
    if (left > 0) this.held.set(key, left);
    else this.held.delete(key);
  }

  /** A request the relay answered itself: the server never saw it. */
  refused(id: JsonRpcId): void {
    const key = looseIdKey(id);
    this.refusedKeys.delete(key);
    this.refusedKeys.add(key);
    if (this.refusedKeys.size > MAX_TRACKED) {
      const oldest = this.refusedKeys.values().next().value;
      if (oldest !== undefined) this.refusedKeys.delete(oldest);
    }
  }

  /**
   * Why a server response with this id must not reach the client, or undefined: no pending
   * request has the id exactly, and a client could take it for a request the relay holds or
   * refused, which the server never received (its "answer" is made up).
   */
  blockedBy(id: unknown): "held" | "refused" | undefined {
    if (!this.holding) return undefined;
    if ((typeof id === "string" || typeof id === "number") && this.pending.has(idKey(id))) return undefined;
    const keys = looseIdKeys(id);
    if (keys.some((k) => this.held.has(k))) return "held";
    if (keys.some((k) => this.refusedKeys.has(k))) return "refused";
    return undefined;
  }

  /** The pending requests a client could take `id` for, exactly or loosely; none is consumed. */
  peek(id: unknown): Pending[] {
    if ((typeof id === "string" || typeof id === "number") && this.pending.has(idKey(id)))
      return [this.pending.get(idKey(id)) as Pending];
    return this.looseMatches(id);
  }

  private looseMatches(id: unknown): Pending[] {
    const keys = new Set<string>();
    for (const loose of looseIdKeys(id)) for (const k of this.byLoose.get(loose) ?? []) keys.add(k);
    return [...keys].map((k) => this.pending.get(k) as Pending);
  }

  /** A server response: the request it answers, or those it could be taken to answer. */
  answered(id: JsonRpcId, response: Record<string, unknown>): Answered {
    const key = idKey(id);
    const found = this.pending.get(key);
    if (!found) return { answers: this.looseMatches(id), loose: true };
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
