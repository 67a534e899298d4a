/**
 * Client → server: each line the gate let through becomes one HTTP send. Requests go at once
 * (many in flight, nothing waits for an answer); notifications and responses keep the client's
 * order. A 2026-07-28 request carries the headers derived from its body, and its cancellation
 * closes its stream. A request that cannot be delivered is answered with a JSON-RPC error under
 * its id; a response or notification that cannot be delivered is said on stderr, never answered.
 */
import { parseStrictJson } from "../../core/json/strict-json.js";
import { headerBodyMismatch, paramHeaders } from "../../core/remote/param-headers.js";
import { messageIdSpellings } from "../../core/wire/answer-readings.js";
import { foldedKeyProblem } from "../../core/wire/folded-members.js";
import { classify, isModernRequest, isRecord } from "../../core/wire/jsonrpc.js";
import type { Connection } from "./connection.js";
import { INTERNAL_ERROR, INVALID_REQUEST, type InFlight } from "./in-flight.js";
import { messageOf, serverAnswerIn, statusOf } from "./sdk-errors.js";
import type { ToolHeaderCache } from "./tool-headers.js";
import type { RawBodies } from "./wire-fetch.js";
import type { Msg, WireSendOptions } from "./wire-transport.js";

export interface ClientSide {
  conn: Connection;
  inFlight: InFlight;
  tools: ToolHeaderCache;
  /** The client's bytes for each body (wire-fetch.ts), shared with the transports' fetch. */
  raw: RawBodies;
  say(line: string): void;
}

export class ToServer {
  /** Messages that are not requests go one after the other, in the client's order. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly s: ClientSide) {}

  /** One line the client wrote (and the gate let through), without its line terminator. */
  fromClient(bytes: Buffer): void {
    const { conn, inFlight } = this.s;
    if (conn.stopped) return;
    const text = bytes.toString("utf8");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.s.say(
        "the client sent a line that is not JSON; HTTP carries only JSON-RPC messages, so it was not sent",
      );
      return;
    }
    const c = classify(value);
    if (c.kind === "invalid") {
      this.s.say(`the client sent a message that is not JSON-RPC (${c.reason}); it was not sent`);
      if (isRecord(value) && value["id"] !== undefined && typeof value["method"] === "string")
        inFlight.answerError(
          value["id"],
          undefined,
          INVALID_REQUEST,
          `effectgate: not sent to the remote server: ${c.reason}`,
        );
      return;
    }
    if (c.kind === "batch") {
      conn.era ??= "legacy";
      const spellings = messageIdSpellings(text);
      c.members.forEach((m, i) => {
        if (m.kind === "request") inFlight.track(m.id, m.method, spellings.get(i), false);
      });
      this.queue(value as Msg[], bytes, undefined);
      return;
    }
    if (c.kind === "request") {
      const modern = isModernRequest(c.params);
      // A client may try one era and fall back to the other (an initialize a modern-only server
      // refuses, then server/discover): the latest request says which era the session is in.
      conn.era = modern ? "modern" : "legacy";
      if (c.method === "initialize" && !modern) conn.initialize = c.msg;
      const pending = inFlight.track(c.id, c.method, messageIdSpellings(text).get(0), modern);
      if (modern) {
        const refused = this.modernHeaders(c.msg, text);
        if ("problem" in refused) {
          inFlight.delete(c.id);
          inFlight.answerError(
            c.id,
            pending.idText,
            INVALID_REQUEST,
            `effectgate: not sent: ${refused.problem}`,
          );
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
      if (c.method === "notifications/initialized") conn.initialized = true;
      // 2026-07-28 over HTTP: closing the request's stream is the cancellation (and no
      // notification is defined for it), so the bridge aborts the POST instead of sending this.
      if (c.method === "notifications/cancelled" && this.cancelModern(c.params)) return;
    }
    this.queue(c.msg, bytes, undefined);
  }

  /** Resolves once the messages that keep their order are sent and every request is answered. */
  async drained(): Promise<void> {
    await this.chain;
    while (this.s.inFlight.size > 0 && !this.s.conn.stopped) await new Promise((r) => setTimeout(r, 20));
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
    const decls = typeof name === "string" ? this.s.tools.declarationsFor(name) : undefined;
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
    const id = params["requestId"];
    const p = this.s.inFlight.get(id);
    if (!p?.modern) return this.s.conn.era === "modern";
    this.s.inFlight.delete(id);
    p.abort?.abort();
    return true;
  }

  /** A 2026-07-28 request's stream ended: if its answer did not come, it is lost. */
  private streamEnded(id: unknown): void {
    const { inFlight } = this.s;
    const p = inFlight.get(id);
    if (!p || p.abort?.signal.aborted || this.s.conn.stopped) return;
    // The answer may be on its way through the SDK's reader; look again once it has run.
    setImmediate(() => {
      const still = inFlight.get(id);
      if (!still || still !== p) return;
      inFlight.delete(id);
      inFlight.answerError(
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

  private async deliver(
    msg: Msg | Msg[],
    raw: Buffer,
    options: WireSendOptions | undefined,
    attempt: number,
  ): Promise<void> {
    const { conn } = this.s;
    while (conn.repairing) await conn.repairing;
    if (conn.stopped) return;
    const isRequest = !Array.isArray(msg) && typeof msg["method"] === "string" && msg["id"] !== undefined;
    let drop: (() => void) | undefined;
    try {
      const t = await conn.get();
      drop = this.s.raw.put(JSON.stringify(msg), raw);
      await t.send(msg, options);
    } catch (err) {
      conn.handledError(err);
      drop?.();
      drop = undefined;
      if (conn.stopped || options?.requestSignal?.aborted) return;
      let retry = false;
      let reason = err;
      try {
        retry = await conn.recover(err, msg, attempt);
      } catch (repair) {
        reason = repair;
      }
      if (retry) return this.deliver(msg, raw, options, attempt + 1);
      this.failed(msg, reason, isRequest);
    } finally {
      drop?.();
    }
  }

  private failed(msg: Msg | Msg[], err: unknown, isRequest: boolean): void {
    const { inFlight } = this.s;
    const why = messageOf(err);
    const status = statusOf(err);
    const text = `effectgate could not deliver this request to the remote server${status ? ` (HTTP ${status})` : ""}: ${why}`;
    if (isRequest && !Array.isArray(msg)) {
      const p = inFlight.get(msg["id"]);
      if (!p) return;
      inFlight.delete(msg["id"]);
      // The server refused with a JSON-RPC error of its own in the HTTP error's body (a modern
      // server refusing a legacy initialize, say): that is its answer, and the client gets it.
      const own = serverAnswerIn(err, msg["id"]);
      if (own) inFlight.write(own, p.idText);
      else inFlight.answerError(msg["id"], p.idText, INTERNAL_ERROR, text);
      return;
    }
    if (Array.isArray(msg)) {
      for (const m of msg) {
        if (typeof m["method"] !== "string" || m["id"] === undefined) continue;
        const p = inFlight.get(m["id"]);
        if (!p) continue;
        inFlight.delete(m["id"]);
        inFlight.answerError(m["id"], p.idText, INTERNAL_ERROR, text);
      }
      return;
    }
    // A response or a notification: the client expects no answer, so it must not get one.
    const what =
      typeof msg["method"] === "string" ? String(msg["method"]) : "the client's answer to a server request";
    this.s.say(`could not deliver ${what}${status ? ` (HTTP ${status})` : ""}: ${why}`);
  }
}
