/**
 * The client's requests the bridge sent and that are not answered yet, and the one way a line
 * goes back to the client: an answer carries its id exactly as the client spelled it, even an id
 * JSON.parse cannot keep exact (beyond 2^53).
 */
import type { Msg } from "./wire-transport.js";

/** Error codes the bridge answers with (JSON-RPC's reserved range). */
export const INTERNAL_ERROR = -32603;
export const INVALID_REQUEST = -32600;

export interface Pending {
  method: string;
  /** The id as the client wrote it, when JSON.parse cannot keep it exact (beyond 2^53). */
  idText?: string;
  modern: boolean;
  abort?: AbortController;
}

export const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;

export class InFlight {
  private readonly pending = new Map<string, Pending>();

  /** `own`: the bridge wrote the line itself, in the server's place (decision 0114). */
  constructor(private readonly toClient: (line: string, own: boolean) => void) {}

  get size(): number {
    return this.pending.size;
  }

  get(id: unknown): Pending | undefined {
    return this.pending.get(idKey(id));
  }

  delete(id: unknown): void {
    this.pending.delete(idKey(id));
  }

  values(): IterableIterator<Pending> {
    return this.pending.values();
  }

  track(id: unknown, method: string, spelled: string | undefined, modern: boolean): Pending {
    const p: Pending = { method, modern };
    if (typeof id === "number" && !Number.isSafeInteger(id) && spelled !== undefined) p.idText = spelled;
    this.pending.set(idKey(id), p);
    return p;
  }

  /** The bridge's own error answer: the log says the bridge wrote it, not the server. */
  answerError(id: unknown, idText: string | undefined, code: number, message: string): void {
    this.write({ jsonrpc: "2.0", id, error: { code, message } }, idText, true);
  }

  /** One message to the client, its id spelled as the client spelled it. */
  write(m: Msg, idText: string | undefined, own = false): void {
    if (idText === undefined) {
      this.toClient(JSON.stringify(m), own);
      return;
    }
    const marker = `effectgate-id-${Math.random().toString(36).slice(2)}`;
    this.toClient(JSON.stringify({ ...m, id: marker }).replace(JSON.stringify(marker), idText), own);
  }
}
