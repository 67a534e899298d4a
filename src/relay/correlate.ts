/**
 * Matches server responses to the client requests they answer, by (direction, id) with the
 * id's JSON type kept (`1` ≠ `"1"`). Results that arrive later are followed back to the call
 * that caused them: a task's `tasks/result` (CreateTaskResult `result.task.taskId`) and a
 * 2026-07-28 retry after `input_required` (same `requestState`, new id).
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

export class Correlator {
  private readonly pending = new Map<string, Pending>();
  private readonly tasks = new Map<string, SentRequest>();
  private readonly retries = new Map<string, SentRequest>();

  get size(): number {
    return this.pending.size;
  }

  /** A client request about to reach the server. */
  sent(request: SentRequest): void {
    const origin = this.originOf(request) ?? request;
    remember(this.pending, idKey(request.id), { request, origin });
  }

  /** Forget a request the server will never see (it was refused). */
  drop(id: JsonRpcId): void {
    this.pending.delete(idKey(id));
  }

  /**
   * A server response. Returns the request to show as its cause, or undefined when it answers
   * nothing we sent.
   */
  answered(id: JsonRpcId, response: Record<string, unknown>): Pending | undefined {
    const key = idKey(id);
    const found = this.pending.get(key);
    if (!found) return undefined;
    this.pending.delete(key);
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
    return found;
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
