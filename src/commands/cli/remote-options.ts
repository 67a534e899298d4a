// The options of a remote server (`--url`), declared once for the relay and `approve`.
import { UsageError } from "../../core/errors.js";
import type { OAuthChoice } from "../../relay/remote/start.js";
import type { OptionDeclaration } from "./declaration.js";

export interface RemoteArgs extends OAuthChoice {
  url: string;
  /** `--header 'Name: value'` texts, as given. */
  headers: string[];
  /** `--header-env Name=VAR` texts: a header whose whole value is an environment variable. */
  headerEnv: string[];
  transport: "auto" | "http" | "sse";
}

export const urlOption: OptionDeclaration = {
  flags: "--url <url>",
  meaning: "a remote MCP server (Streamable HTTP or HTTP+SSE) instead of a command after -- (docs/remote.md)",
  default: "none",
};

/** The options only a remote server takes (each needs --url). */
export const remoteOptions: readonly OptionDeclaration[] = [
  {
    flags: "--header <header>",
    meaning:
      'a header for every request to the remote server, "Name: value"; ${VAR} is read from the environment',
    default: "none",
    repeatable: true,
  },
  {
    flags: "--header-env <header>",
    meaning:
      'a header whose whole value is an environment variable, "Name=VAR" (kept off the command line; what install --remote writes)',
    default: "none",
    repeatable: true,
  },
  {
    flags: "--transport <transport>",
    meaning: "auto (Streamable HTTP, then HTTP+SSE), http or sse",
    default: "auto",
    parse: (text) => {
      if (text !== "auto" && text !== "http" && text !== "sse")
        throw new UsageError(`expected auto, http or sse, got ${JSON.stringify(text)}`);
      return text;
    },
  },
  {
    flags: "--oauth-client-id <id>",
    meaning: "a client registered beforehand with the server's authorization server",
    default: "effectgate registers itself",
  },
  {
    flags: "--oauth-client-secret-env <var>",
    meaning: "the environment variable holding that client's secret",
    default: "none",
  },
  {
    flags: "--oauth-client-credentials <issuer>",
    meaning:
      "sign in as a machine (the client-credentials grant, no browser) with --oauth-client-id and a secret or a key; they go to this issuer only",
    default: "off (the user signs in through the browser)",
  },
  {
    flags: "--oauth-client-key-file <file>",
    meaning:
      "with --oauth-client-credentials: sign a JWT with this PEM private key (private_key_jwt) instead of sending a secret; the file must be yours, mode 0600 or 0400",
    default: "none",
  },
  {
    flags: "--oauth-client-key-env <var>",
    meaning: "like --oauth-client-key-file, the PEM key read from this environment variable",
    default: "none",
  },
  {
    flags: "--oauth-cross-app <issuer>",
    meaning:
      "sign in through your enterprise identity provider (cross-app access, no browser): its ID-JAG is redeemed at this issuer with --oauth-client-id and --oauth-client-secret-env",
    default: "off",
  },
  {
    flags: "--oauth-idp-token-endpoint <url>",
    meaning:
      "with --oauth-cross-app: the token endpoint of your enterprise identity provider, which exchanges your ID token (it goes there only)",
    default: "none",
  },
  {
    flags: "--oauth-idp-client-id <id>",
    meaning: "with --oauth-cross-app: effectgate's client at that identity provider",
    default: "none",
  },
  {
    flags: "--oauth-idp-client-secret-env <var>",
    meaning: "with --oauth-cross-app: the variable holding that client's secret, if it has one",
    default: "none (a public client)",
  },
  {
    flags: "--oauth-id-token-env <var>",
    meaning: "with --oauth-cross-app: the variable holding your ID token from the identity provider",
    default: "none",
  },
  {
    flags: "--oauth-client-metadata-url <url>",
    meaning: "a client ID metadata document URL, offered to servers that accept one",
    default: "none",
  },
  {
    flags: "--oauth-callback-port <port>",
    meaning: "the loopback port of the sign-in callback (a pre-registered client's redirect URI names it)",
    default: "the stored registration's, else any free port",
    parse: (text) => {
      const port = Number(text);
      if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
        throw new UsageError(`expected a port number from 1 to 65535, got ${JSON.stringify(text)}`);
      return port;
    },
  },
];

/** The remote options as parsed (commander's camelCase names), or undefined without --url. */
export function remoteArgs(o: Record<string, unknown>): RemoteArgs | undefined {
  const given = remoteOptions
    .map((d) => d.flags.split(" ")[0] as string)
    .filter((flag) => {
      const v = o[camel(flag)];
      return Array.isArray(v) ? v.length > 0 : v !== undefined;
    });
  if (typeof o["url"] !== "string") {
    if (given[0] !== undefined)
      throw new UsageError(`${given[0]}: expected --url too (it is an option of a remote server)`);
    return undefined;
  }
  const str = (k: string): string | undefined => (typeof o[k] === "string" ? (o[k] as string) : undefined);
  const out: RemoteArgs = {
    url: o["url"],
    headers: Array.isArray(o["header"]) ? (o["header"] as string[]) : [],
    headerEnv: Array.isArray(o["headerEnv"]) ? (o["headerEnv"] as string[]) : [],
    transport: (str("transport") as RemoteArgs["transport"] | undefined) ?? "auto",
  };
  if (str("oauthClientId") !== undefined) out.oauthClientId = str("oauthClientId") as string;
  if (str("oauthClientSecretEnv") !== undefined)
    out.oauthClientSecretEnv = str("oauthClientSecretEnv") as string;
  if (str("oauthClientMetadataUrl") !== undefined)
    out.oauthClientMetadataUrl = str("oauthClientMetadataUrl") as string;
  if (typeof o["oauthCallbackPort"] === "number") out.oauthCallbackPort = o["oauthCallbackPort"];
  if (str("oauthClientCredentials") !== undefined)
    out.oauthClientCredentials = str("oauthClientCredentials") as string;
  if (str("oauthClientKeyFile") !== undefined) out.oauthClientKeyFile = str("oauthClientKeyFile") as string;
  if (str("oauthClientKeyEnv") !== undefined) out.oauthClientKeyEnv = str("oauthClientKeyEnv") as string;
  for (const k of [
    "oauthCrossApp",
    "oauthIdpTokenEndpoint",
    "oauthIdpClientId",
    "oauthIdpClientSecretEnv",
    "oauthIdTokenEnv",
  ] as const) {
    const v = str(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

const camel = (flag: string): string =>
  flag.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
