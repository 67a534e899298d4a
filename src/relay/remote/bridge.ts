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
 * - A request that cannot be delivered is answered with a JSON-RPC error under its id; a
 *   client's response or notification that cannot be delivered is said on stderr, never answered.
 *
 * The SDK (`@modelcontextprotocol/client`) does the HTTP, SSE and OAuth work (transports.ts);
 * what it re-serialises is in docs/decisions/0098-remote-bridge-reserialises.md.
 */
import { parseStrictJson } from "../../core/json/strict-json.js";
import { headerBodyMismatch, paramHeaders } from "../../core/remote/param-headers.js";
import { foldedKeyProblem } from "../../core/wire/folded-members.js";
import { classify, isModernRequest, isRecord, MODERN_VERSION_META } from "../../core/wire/jsonrpc.js";
import { messageIdSpellings } from "../../core/wire/answer-readings.js";
import { ToolHeaderCache } from "./tool-headers.js";
import type { RawBodies } from "./wire-fetch.js";

type Msg = Record<string, unknown>;

/** What the bridge needs of an SDK transport (StreamableHTTPClientTransport, SSEClientTransport). */
export interface WireTransport {
  onmessage?: (message: Msg) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  start(): Promise<void>;
  send(message: Msg | Msg[], options?: WireSendOptions): Promise<void>;
  close(): Promise<void>;
  setProtocolVersion?(version: string): void;
  readonly sessionId?: string | undefined;
  terminateSession?(): Promise<void>;
  finishAuth?(params: URLSearchParams): Promise<void>;
}

export interface WireSendOptions {
  requestSignal?: AbortSignal;
  onRequestStreamEnd?: () => void;
  headers?: Readonly<Record<string, string>>;
}

export type TransportKind = "http" | "sse";

/** Where an authorisation the SDK started (it opened the browser) comes back. */
export interface AuthWait {
  /** The callback's query once the user has authorised; undefined when none was started. */
  pending(): Promise<URLSearchParams> | undefined;
}

export interface BridgeOptions {
  transport: "auto" | "http" | "sse";
  /** Builds an SDK transport of that kind (transports.ts); tests may pass their own. */
  open(kind: TransportKind): Promise<WireTransport>;
  /** The client's bytes for each body (wire-fetch.ts), shared with the transports' fetch. */
  raw: RawBodies;
  auth?: AuthWait;
  /** One JSON-RPC message for the client, as one line without its newline. */
  toClient(line: string): void;
  /** One line for the human on stderr (it is also logged); already free of secrets. */
  say(line: string): void;
  /** How long the bridge waits for its own requests (a new session's initialize). */
  internalTimeoutMs?: number;
}

/** Error codes the bridge answers with (JSON-RPC's reserved range). */
const INTERNAL_ERROR = -32603;
const INVALID_REQUEST = -32600;

interface Pending {
  method: string;
  /** The id as the client wrote it, when JSON.parse cannot keep it exact (beyond 2^53). */
  idText?: string;
  modern: boolean;
  abort?: AbortController;
}

const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;

/** HTTP status of an SDK error, when it has one. */
function statusOf(err: unknown): number | undefined {
  const e = err as { status?: unknown; code?: unknown; data?: { status?: unknown } } | null;
  const s = e?.status ?? e?.data?.status ?? (typeof e?.code === "number" ? e.code : undefined);
  return typeof s === "number" ? s : undefined;
}

const isUnauthorized = (err: unknown): boolean =>
  err instanceof Error && (err.name === "UnauthorizedError" || err.constructor.name === "UnauthorizedError");

/** One line about an error, with its cause (fetch says only "fetch failed" without it). */
function messageOf(err: unknown): string {
  let text = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error ? (err as { cause?: unknown }).cause : undefined;
  if (cause instanceof Error && !text.includes(cause.message)) text += ` (${cause.message})`;
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}

/** A JSON-RPC error response for `id` in the body of an SDK HTTP error, if there is one. */
function serverAnswerIn(err: unknown, id: unknown): Msg | undefined {
  const text = (err as { data?: { text?: unknown } } | null)?.data?.text;
  if (typeof text !== "string") return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (isRecord(v) && isRecord(v["error"]) && idKey(v["id"]) === idKey(id)) return v;
  } catch {
    /* not JSON */
  }
  return undefined;
}

export class Bridge {
  private transport: WireTransport | undefined;
  private kind: TransportKind | undefined;
  private opening: Promise<WireTransport> | undefined;
  private era: "legacy" | "modern" | undefined;
  /** The client's initialize and whether it said initialized: replayed for a new session. */
  private initialize: Msg | undefined;
  private initialized = false;
  private readonly pending = new Map<string, Pending>();
  /** The bridge's own requests (a new session's initialize), by id. */
  private readonly internal = new Map<string, (msg: Msg) => void>();
  private internalIds = 0;
  /** Sends wait while a new session is being set up or the user is authorising. */
  private barrier: Promise<void> | undefined;
  /** Messages that are not requests go one after the other, in the client's order. */
  private chain: Promise<void> = Promise.resolve();
  private readonly tools = new ToolHeaderCache();
  /** Authorisations already finished (each is one browser round trip). */
  private readonly authorised = new WeakSet<Promise<URLSearchParams>>();
  /** Errors a send's rejection already carries (the SDK reports them to onerror as well). */
  private readonly handled = new WeakSet<Error>();
  private stopped = false;

  constructor(private readonly o: BridgeOptions) {}

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** One line the client wrote (and the gate let through), without its line terminator. */
  fromClient(bytes: Buffer): void {
    if (this.stopped) return;
    const text = bytes.toString("utf8");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.o.say(
        "the client sent a line that is not JSON; HTTP carries only JSON-RPC messages, so it was not sent",
      );
      return;
    }
    const c = classify(value);
    if (c.kind === "invalid") {
      this.o.say(`the client sent a message that is not JSON-RPC (${c.reason}); it was not sent`);
      if (isRecord(value) && value["id"] !== undefined && typeof value["method"] === "string")
        this.answerError(
          value["id"],
          undefined,
          INVALID_REQUEST,
          `effectgate: not sent to the remote server: ${c.reason}`,
        );
      return;
    }
    if (c.kind === "batch") {
      this.era ??= "legacy";
      const spellings = messageIdSpellings(text);
      c.members.forEach((m, i) => {
        if (m.kind === "request") this.track(m.id, m.method, spellings.get(i), false);
      });
      this.queue(value as Msg[], bytes, undefined);
      return;
    }
    if (c.kind === "request") {
      const modern = isModernRequest(c.params);
      // A client may try one era and fall back to the other (an initialize a modern-only server
      // refuses, then server/discover): the latest request says which era the session is in.
      this.era = modern ? "modern" : "legacy";
      if (c.method === "initialize" && !modern) this.initialize = c.msg;
      const pending = this.track(c.id, c.method, messageIdSpellings(text).get(0), modern);
      if (modern) {
        const refused = this.modernHeaders(c.msg, text);
        if ("problem" in refused) {
          this.pending.delete(idKey(c.id));
          this.answerError(c.id, pending.idText, INVALID_REQUEST, `effectgate: not sent: ${refused.problem}`);
          return;
        }
        pending.abort = new AbortController();
        this.request(c.msg, bytes, {
          requestSignal: pending.abort.signal,
          onRequestStreamEnd: () => this.streamEnded(c.id),
          ...(refused.headers ? { headers: refused.headers } : {}),
        });
        return;
      }
      this.request(c.msg, bytes, undefined);
      return;
    }
    if (c.kind === "notification") {
      if (c.method === "notifications/initialized") this.initialized = true;
      // 2026-07-28 over HTTP: closing the request's stream is the cancellation (and no
      // notification is defined for it), so the bridge aborts the POST instead of sending this.
      if (c.method === "notifications/cancelled" && this.cancelModern(c.params)) return;
    }
    this.queue(c.msg, bytes, undefined);
  }

  /**
   * The client closed its side. Resolves once the requests still in flight are answered (the
   * relay stops the bridge after a grace period if they are not).
   */
  async drained(): Promise<void> {
    await this.chain;
    while (this.pending.size > 0 && !this.stopped) await new Promise((r) => setTimeout(r, 20));
  }

  /** Ends the session: DELETE when the server gave one, then the streams. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const p of this.pending.values()) p.abort?.abort();
    const t = this.transport;
    if (!t) return;
    if (this.kind === "http" && t.sessionId !== undefined && t.terminateSession) {
      const done = t.terminateSession().catch((err: unknown) => {
        this.o.say(`could not end the HTTP session (DELETE): ${messageOf(err)}`);
      });
      await Promise.race([done, new Promise((r) => setTimeout(r, 1500).unref())]);
    }
    await t.close().catch(() => undefined);
  }

  private track(id: unknown, method: string, spelled: string | undefined, modern: boolean): Pending {
    const p: Pending = { method, modern };
    if (typeof id === "number" && !Number.isSafeInteger(id) && spelled !== undefined) p.idText = spelled;
    this.pending.set(idKey(id), p);
    return p;
  }

  /**
   * A 2026-07-28 request's headers from the body: `Mcp-Param-*` from the tool's `x-mcp-header`
   * declarations (the SDK sets MCP-Protocol-Version, Mcp-Method and Mcp-Name from the same
   * body). The body is read the one way the gate read it; a body with a second reading
   * (duplicate keys, a member in another case) could make the headers say one thing and the
   * server do another, so it is not sent.
   */
  private modernHeaders(msg: Msg, text: string): { headers?: Record<string, string> } | { problem: string } {
    const strict = parseStrictJson(text);
    if (!strict.ok)
      return {
        problem: `the body cannot be read one way only (${strict.error}), so the HTTP headers derived from it could disagree with what the server reads`,
      };
    const folded = foldedKeyProblem(strict.value);
    if (folded)
      return { problem: `${folded}; the HTTP headers derived from the body could disagree with it` };
    if (msg["method"] !== "tools/call") return {};
    const params = isRecord(msg["params"]) ? msg["params"] : {};
    const name = params["name"];
    const decls = typeof name === "string" ? this.tools.declarationsFor(name) : undefined;
    if (!decls || decls.length === 0) return {};
    const built = paramHeaders(decls, params["arguments"]);
    if (!built.ok) return { problem: built.problem };
    const judged = isRecord(strict.value) && isRecord(strict.value["params"]) ? strict.value["params"] : {};
    const mismatch = headerBodyMismatch(decls, built.headers, judged["arguments"]);
    if (mismatch) return { problem: mismatch };
    return { headers: built.headers };
  }

  private cancelModern(params: unknown): boolean {
    if (!isRecord(params)) return false;
    const key = idKey(params["requestId"]);
    const p = this.pending.get(key);
    if (!p?.modern) return this.era === "modern";
    this.pending.delete(key);
    p.abort?.abort();
    return true;
  }

  /** A 2026-07-28 request's stream ended: if its answer did not come, it is lost. */
  private streamEnded(id: unknown): void {
    const p = this.pending.get(idKey(id));
    if (!p || p.abort?.signal.aborted || this.stopped) return;
    // The answer may be on its way through the SDK's reader; look again once it has run.
    setImmediate(() => {
      const still = this.pending.get(idKey(id));
      if (!still || still !== p) return;
      this.pending.delete(idKey(id));
      this.answerError(
        id,
        p.idText,
        INTERNAL_ERROR,
        "effectgate: the server's response stream ended before it answered; a 2026-07-28 stream cannot be resumed, so send the request again",
      );
    });
  }

  /** Requests go at once (many in flight); other messages keep their order. */
  private request(msg: Msg, raw: Buffer, options: WireSendOptions | undefined): void {
    void this.chain.then(() => this.deliver(msg, raw, options, 0));
  }

  private queue(msg: Msg | Msg[], raw: Buffer, options: WireSendOptions | undefined): void {
    this.chain = this.chain.then(() => this.deliver(msg, raw, options, 0));
  }

  private async connection(): Promise<WireTransport> {
    if (this.transport) return this.transport;
    this.opening ??= this.openKind(this.o.transport === "sse" ? "sse" : "http");
    return this.opening;
  }

  private async openKind(kind: TransportKind): Promise<WireTransport> {
    const t = await this.o.open(kind);
    t.onmessage = (m) => this.fromServer(t, m);
    // The SDK reports a failed send here and also rejects the send; that one is said (or
    // answered) where the send is handled, so only the others are said here.
    t.onerror = (err) =>
      setImmediate(() => {
        if (this.stopped || this.handled.has(err)) return;
        this.o.say(`${kind === "sse" ? "SSE" : "HTTP"}: ${messageOf(err)}`);
      });
    t.onclose = () => undefined;
    try {
      await t.start();
    } catch (err) {
      this.opening = undefined;
      throw err;
    }
    this.transport = t;
    this.kind = kind;
    return t;
  }

  private async deliver(
    msg: Msg | Msg[],
    raw: Buffer,
    options: WireSendOptions | undefined,
    attempt: number,
  ): Promise<void> {
    while (this.barrier) await this.barrier;
    if (this.stopped) return;
    const isRequest = !Array.isArray(msg) && typeof msg["method"] === "string" && msg["id"] !== undefined;
    let drop: (() => void) | undefined;
    try {
      const t = await this.connection();
      drop = this.o.raw.put(JSON.stringify(msg), raw);
      await t.send(msg, options);
    } catch (err) {
      if (err instanceof Error) this.handled.add(err);
      drop?.();
      drop = undefined;
      if (this.stopped || options?.requestSignal?.aborted) return;
      let retry = false;
      let reason = err;
      try {
        retry = await this.recover(err, msg, attempt);
      } catch (repair) {
        reason = repair;
      }
      if (retry) return this.deliver(msg, raw, options, attempt + 1);
      this.failed(msg, reason, isRequest);
    } finally {
      drop?.();
    }
  }

  /** Whether the failure was one the bridge can repair (and has): then the message goes again. */
  private async recover(err: unknown, msg: Msg | Msg[], attempt: number): Promise<boolean> {
    if (attempt >= 2) return false;
    // It failed while a repair was under way (a new session, an authorisation): send it again
    // once the repair is done.
    if (this.barrier) {
      await this.barrier;
      return true;
    }
    const single = Array.isArray(msg) ? undefined : msg;
    const status = statusOf(err);
    // The user is authorising in the browser (the SDK opened it): wait, finish, send again.
    if (isUnauthorized(err) && this.o.auth) {
      const wait = this.o.auth.pending();
      if (!wait) return false;
      // Finished already, for another request that failed the same way: only send again.
      if (this.authorised.has(wait)) return true;
      this.authorised.add(wait);
      await this.hold(async () => {
        const params = await wait;
        const t = this.transport;
        if (!t?.finishAuth) throw new Error("the transport cannot finish an authorisation");
        await t.finishAuth(params);
        this.o.say("authorised; sending the request again");
      });
      return true;
    }
    // Under auto, a server that rejects the Streamable HTTP POST of initialize may speak the old
    // HTTP+SSE transport (2024-11-05): the spec's last fallback.
    if (
      single?.["method"] === "initialize" &&
      this.o.transport === "auto" &&
      this.kind === "http" &&
      (status === 400 || status === 404 || status === 405)
    ) {
      this.o.say(
        `the server answered the Streamable HTTP initialize with ${status}; trying the HTTP+SSE transport`,
      );
      const old = this.transport;
      this.transport = undefined;
      this.opening = undefined;
      await old?.close().catch(() => undefined);
      try {
        await this.hold(async () => {
          this.opening = this.openKind("sse");
          await this.opening;
        });
      } catch (sse) {
        // Neither transport: the client hears the first answer (it may be the server's own
        // JSON-RPC error) and, on stderr, why the old transport did not work either.
        this.o.say(`the HTTP+SSE transport did not work either: ${messageOf(sse)}`);
        throw err;
      }
      return true;
    }
    // A legacy session the server no longer knows: a new one, as the spec requires.
    if (status === 404 && this.era === "legacy" && this.initialize && single?.["method"] !== "initialize") {
      await this.hold(() => this.newSession());
      return true;
    }
    return false;
  }

  /** Runs `work` while every send waits; a failure of `work` fails the waiting sends' retry. */
  private async hold(work: () => Promise<void>): Promise<void> {
    if (this.barrier) {
      await this.barrier;
      return;
    }
    let release = (): void => undefined;
    this.barrier = new Promise<void>((r) => (release = r));
    try {
      await work();
    } finally {
      this.barrier = undefined;
      release();
    }
  }

  /** The client's initialize again under an id of the bridge's own, then its initialized. */
  private async newSession(): Promise<void> {
    const t = this.transport;
    if (!t || !this.initialize) return;
    this.o.say(
      "the server no longer knows this session (404); starting a new one with the client's initialize",
    );
    const id = `effectgate-session-${++this.internalIds}`;
    const answer = new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.internal.delete(idKey(id));
        reject(new Error("no answer to the new session's initialize"));
      }, this.o.internalTimeoutMs ?? 30_000);
      this.internal.set(idKey(id), (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    await t.send({ ...this.initialize, id });
    const m = await answer;
    const result = isRecord(m["result"]) ? m["result"] : undefined;
    if (!result) throw new Error("the server refused the new session's initialize");
    if (typeof result["protocolVersion"] === "string") t.setProtocolVersion?.(result["protocolVersion"]);
    if (this.initialized) await t.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  private failed(msg: Msg | Msg[], err: unknown, isRequest: boolean): void {
    const why = messageOf(err);
    const status = statusOf(err);
    const text = `effectgate could not deliver this request to the remote server${status ? ` (HTTP ${status})` : ""}: ${why}`;
    if (isRequest && !Array.isArray(msg)) {
      const key = idKey(msg["id"]);
      const p = this.pending.get(key);
      if (!p) return;
      this.pending.delete(key);
      // The server refused with a JSON-RPC error of its own in the HTTP error's body (a modern
      // server refusing a legacy initialize, say): that is its answer, and the client gets it.
      const own = serverAnswerIn(err, msg["id"]);
      if (own) this.write(own, p.idText);
      else this.answerError(msg["id"], p.idText, INTERNAL_ERROR, text);
      return;
    }
    if (Array.isArray(msg)) {
      for (const m of msg) {
        if (typeof m["method"] !== "string" || m["id"] === undefined) continue;
        const p = this.pending.get(idKey(m["id"]));
        if (!p) continue;
        this.pending.delete(idKey(m["id"]));
        this.answerError(m["id"], p.idText, INTERNAL_ERROR, text);
      }
      return;
    }
    // A response or a notification: the client expects no answer, so it must not get one.
    const what =
      typeof msg["method"] === "string" ? String(msg["method"]) : "the client's answer to a server request";
    this.o.say(`could not deliver ${what}${status ? ` (HTTP ${status})` : ""}: ${why}`);
  }

  private answerError(id: unknown, idText: string | undefined, code: number, message: string): void {
    this.write({ jsonrpc: "2.0", id, error: { code, message } }, idText);
  }

  private fromServer(t: WireTransport, m: Msg): void {
    if (this.stopped) return;
    const isResponse = typeof m["method"] !== "string" && ("result" in m || "error" in m);
    if (!isResponse) {
      this.write(m, undefined);
      return;
    }
    const key = idKey(m["id"]);
    const own = this.internal.get(key);
    if (own) {
      this.internal.delete(key);
      own(m);
      return;
    }
    const p = this.pending.get(key);
    if (p) this.pending.delete(key);
    let out = m;
    const result = isRecord(m["result"]) ? m["result"] : undefined;
    if (p?.method === "initialize" && result && typeof result["protocolVersion"] === "string")
      t.setProtocolVersion?.(result["protocolVersion"]);
    if (p?.modern && p.method === "tools/list" && result) {
      const listed = this.tools.list(result);
      for (const d of listed.dropped)
        this.o.say(
          `tool "${d.name}" left out of tools/list: its x-mcp-header annotation is invalid (${d.reason})`,
        );
      if (listed.result !== result) out = { ...m, result: listed.result };
    }
    this.write(out, p?.idText);
  }

  /** One message to the client, its id spelled as the client spelled it. */
  private write(m: Msg, idText: string | undefined): void {
    if (idText === undefined) {
      this.o.toClient(JSON.stringify(m));
      return;
    }
    const marker = `effectgate-id-${Math.random().toString(36).slice(2)}`;
    this.o.toClient(JSON.stringify({ ...m, id: marker }).replace(JSON.stringify(marker), idText));
  }
}

export { MODERN_VERSION_META };
