#!/usr/bin/env node
// The "client under test" the MCP conformance suite runs for each client scenario: the official
// SDK client over stdio, spawning a stdio-to-HTTP bridge for the scenario's URL. The bridge is
// effectgate (`effectgate --url URL`) or, for comparison, mcp-remote; a stock SDK client being
// known-good, what fails is the bridge's. What each scenario asks of the client mirrors the
// suite's own everything-client (examples/clients/typescript/everything-client.ts).
//
//   node harness-client.mjs effectgate|mcp-remote [--level L] <server-url>
// The suite appends the URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT).
import { URL } from "node:url";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const ROOT = join(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);
const bridge = args[0];
const url = args[args.length - 1];
const bridgeArgs = args.slice(1, -1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const ctx = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
// The suite's CIMD scenarios expect this client id URL (the suite's own client uses it too).
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

/** The first authorization server the resource's protected-resource metadata names. */
async function issuerOf(resource) {
  const u = new URL(resource);
  const res = await globalThis.fetch(new URL(`/.well-known/oauth-protected-resource${u.pathname}`, u.origin));
  const meta = await res.json();
  const issuer = meta.authorization_servers?.[0];
  if (typeof issuer !== "string") throw new Error(`no authorization server in ${JSON.stringify(meta)}`);
  return issuer;
}

async function command() {
  const env = { ...process.env };
  if (bridge === "effectgate") {
    const extra = [];
    if (scenario === "auth/pre-registration") {
      env.CONFORMANCE_CLIENT_SECRET = ctx.client_secret;
      extra.push(
        "--oauth-client-id",
        ctx.client_id,
        "--oauth-client-secret-env",
        "CONFORMANCE_CLIENT_SECRET",
      );
    }
    if (scenario === "auth/basic-cimd") extra.push("--oauth-client-metadata-url", CIMD_URL);
    if (scenario === "auth/client-credentials-basic") {
      // A machine client names its issuer up front (the secret goes there only); the scenario's
      // authorization server listens on a port of its own, which its resource metadata names.
      env.CONFORMANCE_CLIENT_SECRET = ctx.client_secret;
      extra.push(
        "--oauth-client-id",
        ctx.client_id,
        "--oauth-client-secret-env",
        "CONFORMANCE_CLIENT_SECRET",
        "--oauth-client-credentials",
        await issuerOf(url),
      );
    }
    if (scenario === "auth/client-credentials-jwt") {
      // private_key_jwt: the key from the environment (the suite hands it over as PEM text).
      env.CONFORMANCE_CLIENT_KEY = ctx.private_key_pem;
      extra.push(
        "--oauth-client-id",
        ctx.client_id,
        "--oauth-client-key-env",
        "CONFORMANCE_CLIENT_KEY",
        "--oauth-client-credentials",
        await issuerOf(url),
      );
    }
    if (scenario === "auth/cross-app-access-complete-flow") {
      // The user signed in to the enterprise IdP already; the suite hands over that ID token.
      env.CONFORMANCE_CLIENT_SECRET = ctx.client_secret;
      env.CONFORMANCE_ID_TOKEN = ctx.idp_id_token;
      extra.push(
        "--oauth-client-id",
        ctx.client_id,
        "--oauth-client-secret-env",
        "CONFORMANCE_CLIENT_SECRET",
        "--oauth-cross-app",
        await issuerOf(url),
        "--oauth-idp-token-endpoint",
        ctx.idp_token_endpoint,
        "--oauth-idp-client-id",
        ctx.idp_client_id,
        "--oauth-id-token-env",
        "CONFORMANCE_ID_TOKEN",
      );
    }
    return {
      command: process.execPath,
      args: [join(ROOT, "dist", "main.js"), ...bridgeArgs, ...extra, "--url", url],
      env,
    };
  }
  if (bridge === "mcp-remote") {
    const extra = [];
    if (scenario === "auth/pre-registration")
      extra.push(
        "--static-oauth-client-info",
        JSON.stringify({ client_id: ctx.client_id, client_secret: ctx.client_secret }),
      );
    if (scenario === "auth/basic-cimd") extra.push("--client-metadata-url", CIMD_URL);
    const proxy = process.env.MCP_REMOTE_PROXY;
    if (!proxy) throw new Error("MCP_REMOTE_PROXY: expected the path of mcp-remote's dist/proxy.js");
    return { command: process.execPath, args: [proxy, url, ...bridgeArgs, ...extra], env };
  }
  throw new Error(`expected effectgate or mcp-remote, got ${JSON.stringify(bridge)}`);
}

async function main() {
  const c = await command();
  const transport = new StdioClientTransport({ ...c, stderr: "inherit" });
  const elicits = scenario.startsWith("elicitation");
  const client = new Client(
    { name: "conformance-harness", version: "1.0.0" },
    { capabilities: elicits ? { elicitation: { applyDefaults: true } } : {} },
  );
  // A client that accepts a form fills in the defaults the form declares (SEP-1034): the user
  // pressed "accept" without changing anything. This is the client's part, not the bridge's.
  if (elicits)
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      const props = req.params.requestedSchema?.properties ?? {};
      const content = Object.fromEntries(
        Object.entries(props)
          .filter(([, p]) => p && typeof p === "object" && "default" in p)
          .map(([k, p]) => [k, p.default]),
      );
      return { action: "accept", content };
    });
  await client.connect(transport);
  if (scenario === "sse-retry") {
    await client.request(
      { method: "tools/call", params: { name: "test_reconnection", arguments: {} } },
      CallToolResultSchema,
    );
  } else if (elicits) {
    await client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
  } else {
    const list = await client.listTools();
    if (scenario.startsWith("auth/")) {
      if (
        scenario !== "auth/pre-registration" &&
        !scenario.startsWith("auth/client-credentials") &&
        !scenario.startsWith("auth/cross-app")
      )
        await client.callTool({ name: "test-tool", arguments: {} });
    } else if (list.tools[0]) await client.callTool({ name: list.tools[0].name, arguments: { a: 2, b: 3 } });
  }
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`harness: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
