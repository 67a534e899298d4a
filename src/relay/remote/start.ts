/**
 * From the relay's `--url` options to a running bridge: the URL and headers are checked before
 * anything starts (a usage error, exit 2), the SSRF policy is fixed from where the server is,
 * and the OAuth client is set up with its token store under `$EFFECTGATE_HOME/oauth/`.
 */
import { join } from "node:path";
import { UsageError } from "../../core/errors.js";
import {
  parseHeaderEnvOption,
  parseHeaderOption,
  type StaticHeader,
} from "../../core/remote/header-option.js";
import { parseServerUrl, type ServerUrl } from "../../core/remote/server-url.js";
import { escapeUntrusted } from "../../core/text/terminal-text.js";
import { effectgateHome } from "../../platform/home.js";
import type { ServerEndpoint } from "../session/endpoint.js";
import { openBrowser } from "./auth/browser.js";
import { CallbackServer } from "./auth/callback.js";
import { loadClientKey, type ClientKey } from "./auth/client-key.js";
import { BridgeOAuth, SIGN_IN_TIMEOUT_MS } from "./auth/provider.js";
import { SignInLock } from "./auth/sign-in-lock.js";
import { TokenStore } from "./auth/token-store.js";
import { RemoteEndpoint } from "./endpoint.js";
import { serverIsNonPublic } from "./ssrf.js";
import { clientCredentials, crossAppAccess, transportOpener, type CrossApp } from "./transports.js";
import { RawBodies, type FetchLike } from "./wire-fetch.js";

export type TransportChoice = "auto" | "http" | "sse";

/** How the bridge signs in: `--oauth-…` options, read once by the CLI (remote-options.ts). */
export interface OAuthChoice {
  oauthClientId?: string;
  /** The environment variable holding the pre-registered client's secret. */
  oauthClientSecretEnv?: string;
  oauthClientMetadataUrl?: string;
  /** The loopback port of the OAuth callback (a pre-registered client's redirect URI names one). */
  oauthCallbackPort?: number;
  /** The issuer of the client-credentials grant (`--oauth-client-credentials`). */
  oauthClientCredentials?: string;
  /** A machine client's PEM private key file (`--oauth-client-key-file`, private_key_jwt). */
  oauthClientKeyFile?: string;
  /** The environment variable holding that key (`--oauth-client-key-env`). */
  oauthClientKeyEnv?: string;
  /** Cross-app access (`--oauth-cross-app ISSUER` and the `--oauth-idp…` options). */
  oauthCrossApp?: string;
  oauthIdpTokenEndpoint?: string;
  oauthIdpClientId?: string;
  oauthIdpClientSecretEnv?: string;
  oauthIdTokenEnv?: string;
}

export interface RemoteChoice extends OAuthChoice {
  url: string;
  /** `--header` option texts, as given. */
  headers: readonly string[];
  /** `--header-env Name=VAR` option texts. */
  headerEnv?: readonly string[];
  transport: TransportChoice;
}

export interface PreparedRemote {
  server: ServerUrl;
  headers: StaticHeader[];
  /** Starts the bridge; `say` is where its notices go before the relay takes its stderr. */
  start(o?: { base?: FetchLike }): Promise<ServerEndpoint>;
}

/**
 * The machine client's key, when one is named: only with the client-credentials grant, and
 * instead of a secret, not as well (which would the authorization server be shown?).
 */
function machineKey(
  c: RemoteChoice,
  env: NodeJS.ProcessEnv,
  secret: string | undefined,
): ClientKey | undefined {
  const named = c.oauthClientKeyFile !== undefined ? "--oauth-client-key-file" : "--oauth-client-key-env";
  if (c.oauthClientKeyFile === undefined && c.oauthClientKeyEnv === undefined) return undefined;
  if (c.oauthClientKeyFile !== undefined && c.oauthClientKeyEnv !== undefined)
    throw new UsageError(
      "--oauth-client-key-file: expected the key from a file or from --oauth-client-key-env, not both",
    );
  if (c.oauthClientCredentials === undefined)
    throw new UsageError(
      `${named}: expected --oauth-client-credentials too (the key signs in a machine client)`,
    );
  if (secret !== undefined)
    throw new UsageError(`${named}: expected a key or --oauth-client-secret-env, not both`);
  return loadClientKey(
    c.oauthClientKeyFile !== undefined
      ? { file: c.oauthClientKeyFile }
      : { envVar: c.oauthClientKeyEnv as string },
    env,
  );
}

/** A variable that must hold a value, or a usage error naming the option. */
function fromEnv(env: NodeJS.ProcessEnv, option: string, name: string, what: string): string {
  const v = env[name];
  if (v === undefined || v === "")
    throw new UsageError(`${option}: expected the environment variable ${name} to hold ${what}, got nothing`);
  return v;
}

/** The cross-app choices, checked: every part named, and not mixed with the machine grant. */
function crossApp(c: RemoteChoice, env: NodeJS.ProcessEnv, secret: string | undefined): CrossApp | undefined {
  const idpOptions = [
    ["--oauth-idp-token-endpoint", c.oauthIdpTokenEndpoint],
    ["--oauth-idp-client-id", c.oauthIdpClientId],
    ["--oauth-idp-client-secret-env", c.oauthIdpClientSecretEnv],
    ["--oauth-id-token-env", c.oauthIdTokenEnv],
  ] as const;
  if (c.oauthCrossApp === undefined) {
    const stray = idpOptions.find(([, v]) => v !== undefined);
    if (stray)
      throw new UsageError(`${stray[0]}: expected --oauth-cross-app too (it is an option of that sign-in)`);
    return undefined;
  }
  if (c.oauthClientCredentials !== undefined)
    throw new UsageError("--oauth-cross-app: expected it or --oauth-client-credentials, not both");
  if (c.oauthClientId === undefined || secret === undefined)
    throw new UsageError(
      "--oauth-cross-app: expected --oauth-client-id and --oauth-client-secret-env too (the authorization server's client that redeems the grant)",
    );
  const missing = idpOptions.filter(([f, v]) => v === undefined && f !== "--oauth-idp-client-secret-env");
  if (missing[0])
    throw new UsageError(`--oauth-cross-app: expected ${missing.map(([f]) => f).join(", ")} too`);
  for (const [flag, url] of [
    ["--oauth-cross-app", c.oauthCrossApp],
    ["--oauth-idp-token-endpoint", c.oauthIdpTokenEndpoint],
  ] as const)
    if (!parseServerUrl(url as string).ok)
      throw new UsageError(
        `${flag}: expected a URL (https, or http on this machine), got ${JSON.stringify(url)}`,
      );
  return {
    issuer: c.oauthCrossApp,
    clientId: c.oauthClientId,
    clientSecret: secret,
    idpTokenEndpoint: c.oauthIdpTokenEndpoint as string,
    idpClientId: c.oauthIdpClientId as string,
    ...(c.oauthIdpClientSecretEnv !== undefined
      ? {
          idpClientSecret: fromEnv(
            env,
            "--oauth-idp-client-secret-env",
            c.oauthIdpClientSecretEnv,
            "the identity provider client's secret",
          ),
        }
      : {}),
    idToken: fromEnv(env, "--oauth-id-token-env", c.oauthIdTokenEnv as string, "your ID token"),
  };
}

export function prepareRemote(c: RemoteChoice, env: NodeJS.ProcessEnv): PreparedRemote {
  const parsed = parseServerUrl(c.url);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const headers: StaticHeader[] = [];
  for (const text of c.headers) {
    const h = parseHeaderOption(text, (name) => env[name]);
    if (!h.ok) throw new UsageError(h.error);
    headers.push(h.header);
  }
  for (const text of c.headerEnv ?? []) {
    const h = parseHeaderEnvOption(text, (name) => env[name]);
    if (!h.ok) throw new UsageError(h.error);
    headers.push(h.header);
  }
  let secret: string | undefined;
  if (c.oauthClientSecretEnv !== undefined) {
    if (c.oauthClientId === undefined)
      throw new UsageError(
        "--oauth-client-secret-env: expected --oauth-client-id too (the secret belongs to a client)",
      );
    secret = env[c.oauthClientSecretEnv];
    if (secret === undefined || secret === "")
      throw new UsageError(
        `--oauth-client-secret-env: expected the environment variable ${c.oauthClientSecretEnv} to hold the client secret, got nothing`,
      );
  }
  const key = machineKey(c, env, secret);
  const enterprise = crossApp(c, env, secret);
  if (c.oauthClientCredentials !== undefined) {
    if (c.oauthClientId === undefined || (secret === undefined && key === undefined))
      throw new UsageError(
        "--oauth-client-credentials: expected --oauth-client-id and one of --oauth-client-secret-env, --oauth-client-key-file or --oauth-client-key-env too (the grant proves who the client is with that secret or key)",
      );
    const issuer = parseServerUrl(c.oauthClientCredentials);
    if (!issuer.ok)
      throw new UsageError(
        `--oauth-client-credentials: expected the authorization server's issuer URL, got ${JSON.stringify(c.oauthClientCredentials)}`,
      );
  }
  if (c.oauthClientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/.+/.test(c.oauthClientMetadataUrl))
    throw new UsageError(
      `--oauth-client-metadata-url: expected an https URL with a path, got ${JSON.stringify(c.oauthClientMetadataUrl)}`,
    );
  const server = parsed.server;
  return {
    server,
    headers,
    async start(o = {}) {
      const raw = new RawBodies();
      const callback = new CallbackServer();
      // Notices go through the endpoint's stderr (so they are logged) once it exists.
      const made: { endpoint?: RemoteEndpoint } = {};
      const say = (line: string): void => {
        if (made.endpoint) made.endpoint.notice(line);
        else process.stderr.write(`effectgate: remote: ${escapeUntrusted(line, "transcript")}\n`);
      };
      const store = new TokenStore({
        dir: join(effectgateHome(env), "oauth"),
        server: server.identity,
        warn: say,
      });
      const stored = store.client(undefined)?.["redirect_uris"];
      const port =
        Array.isArray(stored) && typeof stored[0] === "string" ? Number(new URL(stored[0]).port) : undefined;
      if (c.oauthCallbackPort !== undefined) await callback.listen(c.oauthCallbackPort, { exact: true });
      else await callback.listen(port || undefined);
      const oauth = new BridgeOAuth({
        store,
        callback,
        say,
        lock: new SignInLock({ path: store.path.replace(/\.json$/, ".lock"), timeoutMs: SIGN_IN_TIMEOUT_MS }),
        open: (url) =>
          openBrowser(url, (why) => say(`could not start a browser (${why}); open the URL above yourself`)),
        ...(c.oauthClientId !== undefined
          ? {
              preRegistered: {
                clientId: c.oauthClientId,
                ...(secret !== undefined ? { clientSecret: secret } : {}),
              },
            }
          : {}),
        ...(c.oauthClientMetadataUrl !== undefined ? { clientMetadataUrl: c.oauthClientMetadataUrl } : {}),
      });
      // Machine to machine: the SDK's client-credentials provider, and no browser to wait for.
      const machine = enterprise
        ? await crossAppAccess(enterprise)
        : c.oauthClientCredentials !== undefined && c.oauthClientId !== undefined
          ? await clientCredentials({
              clientId: c.oauthClientId,
              issuer: c.oauthClientCredentials,
              ...(key !== undefined ? { key } : { clientSecret: secret as string }),
            })
          : undefined;
      const open = await transportOpener({
        url: server.url,
        headers,
        raw,
        ssrf: { allowNonPublic: await serverIsNonPublic(server.url) },
        auth: machine ?? oauth,
        ...(o.base ? { base: o.base } : {}),
      });
      const endpoint = new RemoteEndpoint({
        transport: c.transport,
        open,
        raw,
        ...(machine ? {} : { auth: oauth }),
        started: { url: server.loggable, transport: c.transport },
        onStop: () => {
          oauth.releaseLock();
          return callback.close();
        },
      });
      made.endpoint = endpoint;
      return endpoint;
    },
  };
}
