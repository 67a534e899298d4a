/**
 * effectgate as an OAuth 2.1 client of a remote MCP server, through the SDK's `auth()`: the SDK
 * does discovery (RFC 9728 protected-resource metadata, RFC 8414 and OpenID Connect
 * authorization-server metadata), dynamic registration, PKCE (S256, refused when the server does
 * not offer it), the `resource` parameter (RFC 8707), the `iss` check (RFC 9207), refresh and
 * step-up on `insufficient_scope`. This provider supplies what is effectgate's: where
 * registrations and tokens are kept (token-store.ts), how the user is sent to the authorisation
 * page (browser.ts, and the URL on stderr), and where the browser comes back (callback.ts).
 *
 * A pre-registered client (`--oauth-client-id`, a secret from `--oauth-client-secret-env`) is
 * used as given and never registered; a client ID metadata document URL
 * (`--oauth-client-metadata-url`) is offered to servers that support one.
 */
import { randomBytes } from "node:crypto";
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { isLoopbackHost } from "../../../core/remote/server-url.js";
import type { AuthWait } from "../wire-transport.js";
import type { CallbackServer } from "./callback.js";
import type { SignInLock } from "./sign-in-lock.js";
import type { TokenStore } from "./token-store.js";

export interface PreRegistered {
  clientId: string;
  clientSecret?: string;
}

export interface BridgeOAuthOptions {
  store: TokenStore;
  callback: CallbackServer;
  /** Starts the user's browser on the URL (never through a shell). */
  open: (url: string) => void;
  say: (line: string) => void;
  preRegistered?: PreRegistered;
  clientMetadataUrl?: string;
  /** How long the user has to sign in (default SIGN_IN_TIMEOUT_MS). */
  timeoutMs?: number;
  /** One sign-in at a time across processes; without it each process signs in on its own. */
  lock?: SignInLock;
}

/** How long the user has to sign in, and so how long a sign-in lock may be held. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * How long a refresh may hold the lock. The SDK says when a refresh succeeded (saveTokens) or
 * became a sign-in (redirectToAuthorization), not when it failed; this bounds that case.
 */
const REFRESH_HOLD_MS = 30_000;

/**
 * Thrown where the SDK reads the tokens to refresh them, when they changed since the refused
 * request was sent: another process (or another request of this one) refreshed or signed in
 * meanwhile. Refreshing again would spend a refresh token that rotation has made the only
 * valid one, and leave the other process with a dead one. The bridge sends the request again
 * with the new tokens instead (sdk-errors.ts counts this as an unauthorised request, whose
 * authorisation connection.ts finds already finished).
 */
export class TokensChanged extends Error {
  constructor() {
    super("the tokens were renewed by another request; sending again with the new ones");
    this.name = "TokensChanged";
  }
}

export class BridgeOAuth implements OAuthClientProvider, AuthWait {
  readonly clientMetadataUrl: string | undefined;
  private verifier: string | undefined;
  private currentState: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private waiting: Promise<URLSearchParams | undefined> | undefined;
  /** The registration this process's auth() goes with: the one its new tokens belong to. */
  private used: StoredOAuthClientInformation | undefined;
  /** The access token the last request went with: what a 401 refused. */
  private sent: unknown;
  /** An auth() of this process between reading the tokens and saving new ones (or failing). */
  private flight: { done: Promise<void>; end(): void } | undefined;

  constructor(private readonly o: BridgeOAuthOptions) {
    this.clientMetadataUrl = o.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.o.callback.url();
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "effectgate",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(this.o.preRegistered ? {} : { token_endpoint_auth_method: "none" }),
      // A program on the user's machine (SEP-837), so loopback redirects are expected.
      application_type: "native",
    } as OAuthClientMetadata;
  }

  state(): string {
    this.currentState = randomBytes(24).toString("base64url");
    return this.currentState;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const pre = this.o.preRegistered;
    if (pre)
      return {
        client_id: pre.clientId,
        ...(pre.clientSecret !== undefined ? { client_secret: pre.clientSecret } : {}),
      } as StoredOAuthClientInformation;
    // Tokens that can be refreshed are refreshed with the registration they were issued to,
    // even when its redirect names another port: a second relay for the same server cannot
    // listen on the first one's port, and a refresh sends no redirect. A new registration here
    // would make the authorization server refuse the refresh and send the user to the browser.
    const bound = this.o.store.tokenClient(ctx?.issuer) as StoredOAuthClientInformation | undefined;
    if (bound && this.o.store.tokens(ctx?.issuer)?.["refresh_token"] !== undefined)
      return (this.used = bound);
    const client = this.o.store.client(ctx?.issuer) as StoredOAuthClientInformation | undefined;
    // For a sign-in, a registration for another redirect (the port was taken this time) is of no use.
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (client && Array.isArray(uris) && !uris.includes(this.redirectUrl)) return undefined;
    return (this.used = client);
  }

  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    if (this.o.preRegistered) return;
    this.used = info;
    this.o.store.saveClient(ctx?.issuer, info as unknown as Record<string, unknown>);
  }

  /**
   * Without a context this is the per-request read (the Authorization header). With one, it is
   * auth() about to refresh the tokens (or, with none, to start a sign-in) after a 401: that is
   * done by one request of one process at a time. The others wait, read the token file again,
   * and use what the first saved rather than spend the same refresh token twice (decision 0136).
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx === undefined) {
      const t = this.o.store.tokens(undefined) as StoredOAuthTokens | undefined;
      this.sent = t?.access_token;
      return t;
    }
    while (this.flight) await this.flight.done;
    await this.takeLock();
    this.o.store.reload();
    const t = this.o.store.tokens(ctx.issuer) as StoredOAuthTokens | undefined;
    if (t?.access_token !== undefined && t.access_token !== this.sent) {
      this.o.lock?.release();
      this.waiting = Promise.resolve(undefined);
      throw new TokensChanged();
    }
    this.startFlight();
    return t;
  }

  /** Waits while another process holds the lock (signing in or refreshing), then takes it. */
  private async takeLock(): Promise<void> {
    const lock = this.o.lock;
    if (!lock) return;
    let said = false;
    for (;;) {
      let got: "held" | "busy";
      try {
        got = lock.acquire();
      } catch (err) {
        this.o.say(
          `could not take the sign-in lock ${lock.path} (${(err as Error).message}); signing in without it`,
        );
        return;
      }
      if (got === "held") return;
      if (!said)
        this.o.say(
          "another effectgate process is signing in to this server; waiting for it instead of opening a second browser",
        );
      said = true;
      await lock.released();
    }
  }

  private startFlight(): void {
    let end = (): void => undefined;
    const done = new Promise<void>((r) => (end = r));
    const timer = setTimeout(() => {
      this.endFlight();
      this.o.lock?.release();
    }, REFRESH_HOLD_MS);
    timer.unref();
    this.flight = {
      done,
      end: () => {
        clearTimeout(timer);
        end();
      },
    };
  }

  /** The auth() that read the tokens is done with them: the next may read. */
  private endFlight(): void {
    const f = this.flight;
    this.flight = undefined;
    f?.end();
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    this.o.store.saveTokens(
      ctx?.issuer ?? tokens.issuer,
      tokens as unknown as Record<string, unknown>,
      this.o.preRegistered ? undefined : (this.used as unknown as Record<string, unknown> | undefined),
    );
    // Saved: a process (or request) waiting for this sign-in or refresh may read them now.
    this.o.lock?.release();
    this.endFlight();
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // The page is opened on the user's machine: only https, or http on this machine.
    if (
      authorizationUrl.protocol !== "https:" &&
      !(authorizationUrl.protocol === "http:" && isLoopbackHost(authorizationUrl.hostname))
    )
      throw new Error(
        `refused to open the authorisation page ${authorizationUrl.origin}: expected an https URL, got ${authorizationUrl.protocol.replace(/:$/, "")}`,
      );
    // A sign-in, not a refresh: the lock is held until it ends (saveTokens, timeout, close).
    this.endFlight();
    if (this.lockBusy()) {
      this.o.say(
        "another effectgate process is signing in to this server; waiting for it instead of opening a second browser",
      );
      const lock = this.o.lock as SignInLock;
      this.waiting = lock.released().then(() => {
        this.o.store.reload();
        return undefined;
      });
      return;
    }
    const state = this.currentState ?? authorizationUrl.searchParams.get("state") ?? "";
    const waiting = this.o.callback.expect(state, this.o.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
    this.waiting = waiting;
    // Never left unhandled: the bridge awaits it, and a timeout with nobody waiting is harmless.
    // A sign-in that did not come back frees the lock for another process.
    waiting.catch(() => this.o.lock?.release());
    this.o.say(
      `the server asks you to sign in; opening your browser. If it does not open, visit: ${authorizationUrl.href}`,
    );
    this.o.open(authorizationUrl.href);
  }

  /** Whether another live process holds the sign-in lock; takes it when free. */
  private lockBusy(): boolean {
    const lock = this.o.lock;
    if (!lock) return false;
    try {
      return lock.acquire() === "busy";
    } catch (err) {
      this.o.say(
        `could not take the sign-in lock ${lock.path} (${(err as Error).message}); signing in without it`,
      );
      return false;
    }
  }

  /** Gives the sign-in lock up if this process holds it (the bridge is closing). */
  releaseLock(): void {
    this.endFlight();
    this.o.lock?.release();
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new Error("no PKCE code verifier was saved for this authorisation");
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    // The SDK's auth() retries at once after invalidating (a refused refresh token): its next
    // read of the tokens is the same auth(), which still holds the lock, so it may go ahead.
    this.endFlight();
    if (scope === "verifier") this.verifier = undefined;
    else if (scope === "discovery") this.discovery = undefined;
    else {
      if (scope === "all") {
        this.verifier = undefined;
        this.discovery = undefined;
      }
      if (!(scope === "client" && this.o.preRegistered)) this.o.store.forget(scope);
    }
  }

  /** AuthWait: the sign-in the SDK started (it opened the browser), until the next one. */
  pending(): Promise<URLSearchParams | undefined> | undefined {
    return this.waiting;
  }
}
