/**
 * The SDK's client transports, built for the bridge. `@modelcontextprotocol/client` is loaded
 * here only, and this module only on the `--url` path, so a stdio relay never pays for it.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { ClientKey } from "./auth/client-key.js";
import type { StaticHeader } from "../../core/remote/header-option.js";
import type { TransportKind, WireTransport } from "./wire-transport.js";
import { guardedFetch, type SsrfPolicy } from "./ssrf.js";
import { bridgeFetch, type FetchLike, type RawBodies } from "./wire-fetch.js";

export interface TransportSetup {
  url: URL;
  headers: readonly StaticHeader[];
  raw: RawBodies;
  ssrf: SsrfPolicy;
  auth?: OAuthClientProvider;
  /** The fetch under everything (tests count requests); the global fetch by default. */
  base?: FetchLike;
}

/**
 * How often and how soon a dropped SSE stream is picked up again (with `Last-Event-ID`). A
 * server's `retry:` field overrides the delay, as the spec requires.
 */
const RECONNECT = {
  initialReconnectionDelay: 500,
  maxReconnectionDelay: 15_000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 6,
};

/**
 * The SDK's providers for the client-credentials grant (machine to machine), with no browser:
 * ClientCredentialsProvider redeems the client's secret (client_secret_basic),
 * PrivateKeyJwtProvider sends a JWT signed with the client's key instead (private_key_jwt,
 * RFC 7523), so no shared secret crosses the wire. `expectedIssuer` binds either credential to
 * that authorization server (the SDK refuses to use it with any other). Tokens live in memory.
 */
export async function clientCredentials(
  o: { clientId: string; issuer: string } & ({ clientSecret: string } | { key: ClientKey }),
): Promise<OAuthClientProvider> {
  const sdk = await import("@modelcontextprotocol/client");
  if ("key" in o)
    return new sdk.PrivateKeyJwtProvider({
      clientId: o.clientId,
      privateKey: o.key.pkcs8,
      algorithm: o.key.alg,
      clientName: "effectgate",
      expectedIssuer: o.issuer,
    });
  return new sdk.ClientCredentialsProvider({
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    clientName: "effectgate",
    expectedIssuer: o.issuer,
  });
}

/** What the cross-app flow needs: the MCP authorization server's client and the enterprise IdP's. */
export interface CrossApp {
  /** The MCP server's authorization server, which the ID-JAG is for. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The enterprise identity provider's token endpoint, as the user named it: no metadata is
   * fetched that could send the ID token anywhere else.
   */
  idpTokenEndpoint: string;
  idpClientId: string;
  idpClientSecret?: string;
  /** The user's ID token from that IdP. */
  idToken: string;
}

const sameIssuer = (a: string, b: string): boolean => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * The SDK's provider for Cross-App Access (enterprise-managed authorization, SEP-990): the
 * user's ID token is exchanged at the enterprise IdP for an ID-JAG (RFC 8693), which the MCP
 * server's authorization server redeems for an access token (RFC 7523 jwt-bearer). The ID token
 * goes to the named IdP token endpoint only, and an ID-JAG is asked for the named authorization server only:
 * one the MCP server names instead is refused before the IdP is asked, as `expectedIssuer`
 * refuses it before the client's secret is sent.
 */
export async function crossAppAccess(o: CrossApp): Promise<OAuthClientProvider> {
  const sdk = await import("@modelcontextprotocol/client");
  return new sdk.CrossAppAccessProvider({
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    clientName: "effectgate",
    expectedIssuer: o.issuer,
    assertion: async (ctx) => {
      if (!sameIssuer(ctx.authorizationServerUrl, o.issuer))
        throw new Error(
          `refused to ask the identity provider for a grant to ${ctx.authorizationServerUrl}: expected the authorization server ${o.issuer} (--oauth-cross-app)`,
        );
      const grant = await sdk.requestJwtAuthorizationGrant({
        tokenEndpoint: o.idpTokenEndpoint,
        audience: ctx.authorizationServerUrl,
        resource: ctx.resourceUrl,
        idToken: o.idToken,
        clientId: o.idpClientId,
        ...(o.idpClientSecret !== undefined ? { clientSecret: o.idpClientSecret } : {}),
        ...(ctx.scope !== undefined ? { scope: ctx.scope } : {}),
        fetchFn: ctx.fetchFn,
      });
      return grant.jwtAuthGrant;
    },
  });
}

export async function transportOpener(
  s: TransportSetup,
): Promise<(kind: TransportKind) => Promise<WireTransport>> {
  const sdk = await import("@modelcontextprotocol/client");
  const fetchFn = bridgeFetch({
    raw: s.raw,
    server: s.url,
    guarded: guardedFetch(s.ssrf),
    ...(s.base ? { base: s.base } : {}),
  });
  const requestInit: RequestInit = { headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
  const common = {
    fetch: fetchFn as unknown as typeof fetch,
    requestInit,
    ...(s.auth ? { authProvider: s.auth } : {}),
  };
  return async (kind) => {
    const t =
      kind === "sse"
        ? new sdk.SSEClientTransport(s.url, common)
        : new sdk.StreamableHTTPClientTransport(s.url, { ...common, reconnectionOptions: RECONNECT });
    return t as unknown as WireTransport;
  };
}
