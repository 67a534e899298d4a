/**
 * A loopback OAuth 2.1 authorization server (the SDK 1.x `mcpAuthRouter`: RFC 8414 metadata,
 * dynamic registration, PKCE-checked authorization code, refresh tokens) and an MCP resource
 * server that demands its tokens: the legacy fixture of remote-servers.ts behind a bearer check,
 * with RFC 9728 protected-resource metadata and per-tool scopes for step-up. The authorization
 * page approves at once (a user who clicks "Allow"), so a headless browser completes the flow.
 */
import { randomUUID, verify, type KeyObject } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { legacyServer, type RemoteFixture } from "./remote-servers.js";

export interface AuthEvent {
  kind: "register" | "authorize" | "token" | "refresh" | "exchange";
  detail: Record<string, unknown>;
}

export interface OAuthOptions {
  /** Seconds an access token lives (the server refuses it after that). */
  accessTtlSeconds?: number;
  /** Scope a call to write_file needs beyond the basic one: a 403 insufficient_scope until granted. */
  writeScope?: string;
  /** What the protected-resource metadata names as authorization servers (default: the real one). */
  authorizationServers?: (asUrl: string) => string[];
  /** An `iss` the authorization response carries (RFC 9207); given the real issuer. */
  issInResponse?: (issuer: string) => string;
  /**
   * A machine client: the token endpoint serves it the client-credentials grant, for its secret,
   * or (with `publicKey`) for a JWT signed with its private key (private_key_jwt, RFC 7523).
   */
  machineClient?: { clientId: string; clientSecret?: string; publicKey?: KeyObject };
  /**
   * Cross-app access (SEP-990): an enterprise IdP token endpoint at `/idp/token` exchanges
   * `idToken` for an ID-JAG (RFC 8693), and the token endpoint redeems that ID-JAG for a token
   * (RFC 7523 jwt-bearer) when the client authenticates with its secret by HTTP Basic.
   */
  crossApp?: { idToken: string; clientId: string; clientSecret: string };
  /** How long a refresh takes: long enough for two clients' refreshes to overlap. */
  refreshDelayMs?: number;
  /** A client registered beforehand (no dynamic registration for it). */
  preRegistered?: { clientId: string; clientSecret?: string; redirectUri: string };
}

export interface OAuthFixture {
  mcp: RemoteFixture;
  /** The URL the bridge is given: the resource server's MCP endpoint. */
  url: string;
  asUrl: string;
  events: AuthEvent[];
  /** Every bearer token the resource server saw, in order. */
  bearers: string[];
  /** Makes every access token issued so far invalid (as if they expired); refresh tokens stay. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

class Clients implements OAuthRegisteredClientsStore {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  getClient(id: string): OAuthClientInformationFull | undefined {
    return this.clients.get(id);
  }
  registerClient(client: OAuthClientInformationFull): OAuthClientInformationFull {
    this.clients.set(client.client_id, client);
    return client;
  }
}

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: string;
  expiresAt: number;
}

class Provider implements OAuthServerProvider {
  readonly clientsStore = new Clients();
  private readonly codes = new Map<string, { client: string; params: AuthorizationParams }>();
  readonly tokens = new Map<string, Grant>();
  private readonly refresh = new Map<string, Grant>();

  constructor(
    private readonly events: AuthEvent[],
    private readonly ttl: number,
    private readonly iss?: () => string | undefined,
    private readonly refreshDelayMs = 0,
  ) {}

  authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Parameters<OAuthServerProvider["authorize"]>[2],
  ): Promise<void> {
    this.events.push({
      kind: "authorize",
      detail: {
        scopes: params.scopes ?? [],
        resource: params.resource?.href,
        codeChallenge: params.codeChallenge,
        redirectUri: params.redirectUri,
      },
    });
    const code = randomUUID();
    this.codes.set(code, { client: client.client_id, params });
    const to = new URL(params.redirectUri);
    to.searchParams.set("code", code);
    if (params.state !== undefined) to.searchParams.set("state", params.state);
    const iss = this.iss?.();
    if (iss !== undefined) to.searchParams.set("iss", iss);
    res.redirect(to.href);
    return Promise.resolve();
  }

  challengeForAuthorizationCode(_c: OAuthClientInformationFull, code: string): Promise<string> {
    const got = this.codes.get(code);
    if (!got) throw new Error("unknown code");
    return Promise.resolve(got.params.codeChallenge);
  }

  issue(g: Omit<Grant, "expiresAt">): OAuthTokens {
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    const grant = { ...g, expiresAt: Date.now() + this.ttl * 1000 };
    this.tokens.set(access, grant);
    this.refresh.set(refresh, grant);
    return {
      access_token: access,
      token_type: "bearer",
      expires_in: this.ttl,
      refresh_token: refresh,
      scope: g.scopes.join(" "),
    };
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const got = this.codes.get(code);
    if (!got || got.client !== client.client_id) throw new Error("bad code");
    this.codes.delete(code);
    this.events.push({ kind: "token", detail: { resource: got.params.resource?.href } });
    return Promise.resolve(
      this.issue({
        clientId: client.client_id,
        scopes: got.params.scopes ?? [],
        ...(got.params.resource ? { resource: got.params.resource.href } : {}),
      }),
    );
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    const g = this.refresh.get(token);
    this.events.push({ kind: "refresh", detail: { ok: g !== undefined } });
    // Rotation: a refresh token works once; reusing one is refused as RFC 6749 §5.2 says.
    if (!g || g.clientId !== client.client_id) throw new InvalidGrantError("refresh token already used");
    this.refresh.delete(token);
    if (this.refreshDelayMs > 0) await new Promise((r) => setTimeout(r, this.refreshDelayMs));
    return this.issue({
      clientId: g.clientId,
      scopes: g.scopes,
      ...(g.resource ? { resource: g.resource } : {}),
    });
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const g = this.tokens.get(token);
    if (!g || g.expiresAt < Date.now()) throw new Error("invalid or expired");
    return Promise.resolve({
      token,
      clientId: g.clientId,
      scopes: g.scopes,
      expiresAt: Math.floor(g.expiresAt / 1000),
    });
  }
}

/**
 * A client assertion (RFC 7523 §3) as an authorization server checks it: an ES256 signature by
 * the client's key, the client as issuer and subject, this server as audience, not expired.
 */
function assertionOk(jwt: string, key: KeyObject, clientId: string, audiences: string[]): boolean {
  const [head, body, sig] = jwt.split(".");
  if (head === undefined || body === undefined || sig === undefined) return false;
  const header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: string };
  const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
  const signed = verify(
    "sha256",
    Buffer.from(`${head}.${body}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(sig, "base64url"),
  );
  return (
    signed &&
    header.alg === "ES256" &&
    claims["iss"] === clientId &&
    claims["sub"] === clientId &&
    audiences.includes(String(claims["aud"])) &&
    typeof claims["exp"] === "number" &&
    claims["exp"] * 1000 > Date.now()
  );
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts)));
  });
}

export async function oauthServers(o: OAuthOptions = {}): Promise<OAuthFixture> {
  const events: AuthEvent[] = [];
  const bearers: string[] = [];
  let issuer = "";
  const provider = new Provider(
    events,
    o.accessTtlSeconds ?? 3600,
    () => o.issInResponse?.(issuer),
    o.refreshDelayMs,
  );
  // The authorization server, on a port of its own. Express comes with the SDK 1.x server (its
  // types do not: the router is all this uses of it).
  const express = (await import("express" as string)).default as () => ((
    req: IncomingMessage,
    res: import("node:http").ServerResponse,
  ) => void) & { use(handler: unknown): void };
  const asApp = express();
  const asServer = createServer(asApp);
  const asUrl = await listenOn(asServer);
  issuer = new URL(asUrl).href;
  // The client-credentials grant, which the SDK's router does not serve: its secret by HTTP Basic
  // (client_secret_basic) or in the body (client_secret_post).
  const machine = o.machineClient;
  if (machine)
    asApp.use((req: IncomingMessage, res: import("node:http").ServerResponse, next: () => void) => {
      if (req.method !== "POST" || !(req.url ?? "").startsWith("/token")) return next();
      void readBody(req).then((body) => {
        const form = new URLSearchParams(body.toString("utf8"));
        const basic = /^basic (.+)$/i.exec(String(req.headers["authorization"] ?? ""))?.[1];
        const [id, secret] = basic
          ? Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent)
          : [form.get("client_id"), form.get("client_secret")];
        const assertion = form.get("client_assertion");
        const proven = machine.publicKey
          ? form.get("client_assertion_type") === "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" &&
            assertion !== null &&
            assertionOk(assertion, machine.publicKey, machine.clientId, [asUrl, `${asUrl}/`]) &&
            secret == null
          : id === machine.clientId && secret === machine.clientSecret;
        const ok = form.get("grant_type") === "client_credentials" && proven;
        events.push({
          kind: "token",
          detail: {
            grant: form.get("grant_type"),
            clientId: machine.publicKey ? form.get("client_id") : id,
            ok,
            resource: form.get("resource"),
            basic: basic !== undefined,
            assertion,
          },
        });
        res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
        res.end(
          JSON.stringify(
            ok
              ? provider.issue({
                  clientId: machine.clientId,
                  scopes: (form.get("scope") ?? "mcp").split(" "),
                })
              : { error: "invalid_client" },
          ),
        );
      });
    });
  const xaa = o.crossApp;
  const jags = new Map<string, { audience: string | null; resource: string | null }>();
  if (xaa)
    asApp.use((req: IncomingMessage, res: import("node:http").ServerResponse, next: () => void) => {
      const path = req.url ?? "";
      if (req.method !== "POST" || !(path.startsWith("/idp/token") || path.startsWith("/token")))
        return next();
      void readBody(req).then((body) => {
        const form = new URLSearchParams(body.toString("utf8"));
        const reply = (status: number, value: unknown): void => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(value));
        };
        if (path.startsWith("/idp/token")) {
          const ok =
            form.get("grant_type") === "urn:ietf:params:oauth:grant-type:token-exchange" &&
            form.get("subject_token") === xaa.idToken &&
            form.get("subject_token_type") === "urn:ietf:params:oauth:token-type:id_token" &&
            form.get("requested_token_type") === "urn:ietf:params:oauth:token-type:id-jag";
          events.push({
            kind: "exchange",
            detail: { ok, audience: form.get("audience"), resource: form.get("resource") },
          });
          if (!ok) return reply(400, { error: "invalid_grant" });
          const jag = `jag-${randomUUID()}`;
          jags.set(jag, { audience: form.get("audience"), resource: form.get("resource") });
          return reply(200, {
            access_token: jag,
            issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
            token_type: "N_A",
          });
        }
        const basic = /^basic (.+)$/i.exec(String(req.headers["authorization"] ?? ""))?.[1];
        // The secret by HTTP Basic or in the body, as the metadata offers both.
        const [id, secret] = basic
          ? Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent)
          : [form.get("client_id"), form.get("client_secret")];
        const jag = jags.get(form.get("assertion") ?? "");
        const ok =
          form.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
          id === xaa.clientId &&
          secret === xaa.clientSecret &&
          jag !== undefined;
        events.push({ kind: "token", detail: { grant: form.get("grant_type"), clientId: id, ok } });
        if (!ok) return reply(401, { error: "invalid_client" });
        return reply(200, provider.issue({ clientId: xaa.clientId, scopes: ["mcp"] }));
      });
    });
  asApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(asUrl),
      scopesSupported: ["mcp", ...(o.writeScope ? [o.writeScope] : [])],
      clientRegistrationOptions: { clientSecretExpirySeconds: 0 },
    }),
  );
  if (o.preRegistered)
    provider.clientsStore.clients.set(o.preRegistered.clientId, {
      client_id: o.preRegistered.clientId,
      ...(o.preRegistered.clientSecret ? { client_secret: o.preRegistered.clientSecret } : {}),
      redirect_uris: [o.preRegistered.redirectUri],
      token_endpoint_auth_method: o.preRegistered.clientSecret ? "client_secret_post" : "none",
    });
  const origRegister = provider.clientsStore.registerClient.bind(provider.clientsStore);
  provider.clientsStore.registerClient = (c) => {
    events.push({ kind: "register", detail: { redirect_uris: c.redirect_uris, client_name: c.client_name } });
    return origRegister(c);
  };

  // The MCP server itself, unreachable without a token; the resource server in front of it.
  const mcp = await legacyServer();
  const inner = new URL(mcp.url);
  const rs = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            resource: `${rsUrl}/mcp`,
            authorization_servers: o.authorizationServers
              ? o.authorizationServers(asUrl)
              : [new URL(asUrl).href],
            scopes_supported: ["mcp", ...(o.writeScope ? [o.writeScope] : [])],
          }),
        );
        return;
      }
      const prm = `${rsUrl}/.well-known/oauth-protected-resource/mcp`;
      const auth = req.headers["authorization"];
      const token = typeof auth === "string" && /^bearer /i.test(auth) ? auth.slice(7) : undefined;
      if (token) bearers.push(token);
      let info: AuthInfo | undefined;
      try {
        info = token ? await provider.verifyAccessToken(token) : undefined;
      } catch {
        info = undefined;
      }
      if (!info) {
        res.writeHead(401, {
          "www-authenticate": `Bearer error="invalid_token", resource_metadata="${prm}", scope="mcp"`,
          "content-type": "application/json",
        });
        res.end(JSON.stringify({ error: "invalid_token" }));
        return;
      }
      if (o.writeScope && body.includes('"write_file"') && !info.scopes.includes(o.writeScope)) {
        res.writeHead(403, {
          "www-authenticate": `Bearer error="insufficient_scope", scope="mcp ${o.writeScope}", resource_metadata="${prm}"`,
        });
        res.end();
        return;
      }
      // Passed: on to the MCP server, the token removed (no token passthrough).
      const headers = { ...req.headers, host: inner.host };
      delete headers["authorization"];
      const up = httpRequest(
        { host: inner.hostname, port: inner.port, path: inner.pathname, method: req.method, headers },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on("error", () => res.destroy());
      up.end(body);
    })();
  });
  const rsUrl = await listenOn(rs);
  return {
    mcp,
    url: `${rsUrl}/mcp`,
    asUrl,
    events,
    bearers,
    expireAccessTokens: () => provider.tokens.clear(),
    close: async () => {
      await mcp.close();
      for (const s of [rs, asServer]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
