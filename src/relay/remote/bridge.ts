/**
 * The stdio ⇄ HTTP bridge of `effectgate --url`, message by message. The relay in front of it
 * has already judged each client line (the bridge sees only what the gate let through) and will
 * judge every line the bridge writes back; the bridge's job is to carry them over HTTP as the
 * spec's client side must:
 *
 * - It mirrors the client's era. A client that starts with `initialize` speaks a legacy revision
 *   (2025-03-26 … 2025-11-25): Streamable HTTP with a session, the GET stream, resumption, a
 *   new session after a 404, DELETE at the end; under `--transport auto` the old HTTP+SSE
 *   transport when the server rejects the POST. A client whose requests carry
 *   `_meta["io.modelcontextprotocol/protocolVersion"]` speaks 2026-07-28: stateless POSTs with the
 *   headers derived from the body, cancellation by closing the request's stream.
 * - Many requests are in flight at once; nothing waits for an answer before the next line is
 *   sent, and every answer is written the moment the SDK reads it (never buffered).
 *
 * The parts: connection.ts (transport, era, repairs, DELETE; new-session.ts after a 404),
 * to-server.ts (client → server), from-server.ts (server → client), in-flight.ts (the requests
 * awaiting answers and the ids as the client spelled them). The SDK
 * (`@modelcontextprotocol/client`) does the HTTP, SSE and OAuth work (transports.ts); what it
 * re-serialises is in docs/decisions/0098-remote-bridge-reserialises.md.
 */
import { Connection } from "./connection.js";
import { fromServer } from "./from-server.js";
import { InFlight } from "./in-flight.js";
import { ToolHeaderCache } from "./tool-headers.js";
import { ToServer } from "./to-server.js";
import type { RawBodies } from "./wire-fetch.js";
import type { AuthWait, TransportKind, WireTransport } from "./wire-transport.js";

export interface BridgeOptions {
  transport: "auto" | "http" | "sse";
  /** Builds an SDK transport of that kind (transports.ts); tests may pass their own. */
  open(kind: TransportKind): Promise<WireTransport>;
  /** The client's bytes for each body (wire-fetch.ts), shared with the transports' fetch. */
  raw: RawBodies;
  auth?: AuthWait;
  /**
   * One JSON-RPC message for the client, as one line without its newline. `own`: the bridge
   * wrote it in the server's place (an error answer to a request it could not deliver).
   */
  toClient(line: string, own: boolean): void;
  /** One line for the human on stderr (it is also logged); already free of secrets. */
  say(line: string): void;
  /** How long the bridge waits for its own requests (a new session's initialize). */
  internalTimeoutMs?: number;
}

export class Bridge {
  private readonly conn: Connection;
  private readonly answers: InFlight;
  private readonly toServer: ToServer;

  constructor(o: BridgeOptions) {
    const tools = new ToolHeaderCache();
    const answers = new InFlight(o.toClient);
    const conn: Connection = new Connection({
      transport: o.transport,
      open: o.open,
      say: o.say,
      ...(o.auth ? { auth: o.auth } : {}),
      ...(o.internalTimeoutMs !== undefined ? { internalTimeoutMs: o.internalTimeoutMs } : {}),
      onMessage: (t, m) => fromServer({ conn, inFlight: answers, tools, say: o.say }, t, m),
    });
    this.conn = conn;
    this.answers = answers;
    this.toServer = new ToServer({ conn, inFlight: answers, tools, raw: o.raw, say: o.say });
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.answers.size;
  }

  /** One line the client wrote (and the gate let through), without its line terminator. */
  fromClient(bytes: Buffer): void {
    this.toServer.fromClient(bytes);
  }

  /**
   * The client closed its side. Resolves once the requests still in flight are answered (the
   * relay stops the bridge after a grace period if they are not).
   */
  drained(): Promise<void> {
    return this.toServer.drained();
  }

  /** Ends the session: DELETE when the server gave one, then the streams. */
  async close(): Promise<void> {
    if (!this.conn.stop()) return;
    for (const p of this.answers.values()) p.abort?.abort();
    await this.conn.end();
  }
}
