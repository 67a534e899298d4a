/**
 * The bridge's connection to the server: which transport (Streamable HTTP, or under `auto` the
 * old HTTP+SSE one when the server refuses the first), which era the client speaks, and the
 * repairs that let a failed send go again (a sign-in finished, a new session after a 404).
 * While a repair runs every send waits. Closing ends the session with DELETE.
 */
import { NewSessions } from "./new-session.js";
import { isUnauthorized, messageOf, statusOf } from "./sdk-errors.js";
import type { AuthWait, Msg, TransportKind, WireTransport } from "./wire-transport.js";

export interface ConnectionOptions {
  transport: "auto" | "http" | "sse";
  /** Builds an SDK transport of that kind (transports.ts); tests may pass their own. */
  open(kind: TransportKind): Promise<WireTransport>;
  auth?: AuthWait;
  /** One line for the human on stderr (it is also logged); already free of secrets. */
  say(line: string): void;
  /** How long the bridge waits for its own requests (a new session's initialize). */
  internalTimeoutMs?: number;
  /** Every message the server sends, with the transport it came on. */
  onMessage(t: WireTransport, m: Msg): void;
}

export class Connection {
  private transport: WireTransport | undefined;
  private kind: TransportKind | undefined;
  private opening: Promise<WireTransport> | undefined;
  era: "legacy" | "modern" | undefined;
  /** The client's initialize and whether it said initialized: replayed for a new session. */
  initialize: Msg | undefined;
  initialized = false;
  readonly sessions: NewSessions;
  /** Sends wait while a new session is being set up or the user is authorising. */
  private barrier: Promise<void> | undefined;
  /** Authorisations already finished (each is one browser round trip). */
  private readonly authorised = new WeakSet<Promise<URLSearchParams | undefined>>();
  /** Errors a send's rejection already carries (the SDK reports them to onerror as well). */
  private readonly handled = new WeakSet<Error>();
  private ended = false;

  constructor(private readonly o: ConnectionOptions) {
    this.sessions = new NewSessions(o.say, o.internalTimeoutMs ?? 30_000);
  }

  get stopped(): boolean {
    return this.ended;
  }

  /** Marks the end; false when it was already marked. */
  stop(): boolean {
    if (this.ended) return false;
    this.ended = true;
    return true;
  }

  /** A send's failure that the sender says (or answers) itself, so onerror stays quiet. */
  handledError(err: unknown): void {
    if (err instanceof Error) this.handled.add(err);
  }

  /** The repair under way (a new session, a sign-in), which every send waits for. */
  get repairing(): Promise<void> | undefined {
    return this.barrier;
  }

  async get(): Promise<WireTransport> {
    if (this.transport) return this.transport;
    this.opening ??= this.openKind(this.o.transport === "sse" ? "sse" : "http");
    return this.opening;
  }

  private async openKind(kind: TransportKind): Promise<WireTransport> {
    const t = await this.o.open(kind);
    t.onmessage = (m) => this.o.onMessage(t, m);
    // The SDK reports a failed send here and also rejects the send; that one is said (or
    // answered) where the send is handled, so only the others are said here.
    t.onerror = (err) =>
      setImmediate(() => {
        if (this.ended || this.handled.has(err)) return;
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

  /** Whether the failure was one the bridge can repair (and has): then the message goes again. */
  async recover(err: unknown, msg: Msg | Msg[], attempt: number): Promise<boolean> {
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
        if (params === undefined) {
          this.o.say(
            "another effectgate process or request renewed the tokens for this server; sending the request again",
          );
          return;
        }
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
      await this.hold(async () => {
        const t = this.transport;
        if (t && this.initialize) await this.sessions.start(t, this.initialize, this.initialized);
      });
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

  /** Ends the session: DELETE when the server gave one, then the streams. */
  async end(): Promise<void> {
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
}
