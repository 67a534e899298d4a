import { spawnServer, type ServerProcess } from "./spawn-server.js";
import { childEndpoint, type ServerEndpoint } from "../session/endpoint.js";
import { PROBE_CAPABILITIES } from "./probe-answers.js";
import { Connection, isObj, ProbeError, type Msg } from "./probe-connection.js";

/**
 * `effectgate approve`'s minimal MCP client: start the server, learn what it offers (tools on
 * every page, prompts, resource templates, instructions), stop it. It declares what a capable
 * client declares (roots, sampling, elicitation, tasks), because servers offer some tools only
 * to such clients; a tool approve never saw would be refused in those clients' sessions with
 * advice (`approve --diff`) that finds nothing to review (docs/decisions/0088). Requests the
 * server sends back get what such a client would answer without a person: no roots, a declined
 * elicitation, a refused sampling request.
 *
 * Era order: legacy `initialize` first, then `server/discover` when `initialize` is answered
 * with an error. Every shipping server speaks legacy; a legacy server's reaction to an unknown
 * pre-handshake request varies (some never answer, which would cost a whole timeout), whereas a
 * modern server must answer an unknown method with an error at once. See docs/decisions/0026.
 */

const LEGACY_VERSION = "2025-11-25";
const MODERN_VERSION = "2026-07-28";
const MAX_PAGES = 10_000;

/**
 * The one place the probe starts a process: the relay's own launcher, so `approve` resolves the
 * command (PATH, Windows .cmd shims) exactly as the relay that will run it later. In a process
 * group of its own, like the relay's server: `npx -y pkg` is npx, a shell and node, and stopping
 * npx alone would leave the server itself running after `approve` has exited.
 */
async function startServer(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  return spawnServer(argv, env, process.cwd(), true);
}

export interface ProbeResult {
  era: "legacy" | "modern";
  protocolVersion: string;
  serverInfo: unknown;
  capabilities: Record<string, unknown>;
  instructions?: string;
  tools: unknown[];
  prompts?: unknown[];
  resourceTemplates?: unknown[];
  resources?: unknown[];
}

export interface ProbeOptions {
  timeoutMs: number;
  /** The server's environment; the relay's own by default. */
  env?: NodeJS.ProcessEnv;
  /** Server stderr, passed through for the human (it is not part of the protocol). */
  onStderr?: (text: string) => void;
  /** Sent as clientInfo.version (the relay layer may not import the package version itself). */
  clientVersion?: string;
}

const errorText = (m: Msg): string => {
  const e = m["error"];
  return isObj(e) ? `error ${String(e["code"])}: ${String(e["message"])}` : "an error";
};

export async function probeServer(argv: readonly string[], opts: ProbeOptions): Promise<ProbeResult> {
  const child = childEndpoint(await startServer(argv, opts.env ?? process.env), argv);
  return probeEndpoint(child, opts);
}

/** The same probe of a server that is not a process of ours (the HTTP bridge of `approve --url`). */
export async function probeEndpoint(child: ServerEndpoint, opts: ProbeOptions): Promise<ProbeResult> {
  const conn = new Connection(child, opts.timeoutMs, opts.onStderr);
  const onSignal = (sig: NodeJS.Signals): void => conn.interrupt(sig === "SIGINT" ? "SIGINT" : "SIGTERM");
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await talk(conn, opts.clientVersion ?? "0");
  } finally {
    await conn.close();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

async function talk(conn: Connection, version: string): Promise<ProbeResult> {
  const clientInfo = { name: "effectgate", version };
  const init = await conn.request("initialize", {
    protocolVersion: LEGACY_VERSION,
    capabilities: PROBE_CAPABILITIES,
    clientInfo,
  });
  let era: ProbeResult["era"];
  let info: Msg;
  let meta: Msg | undefined;
  if (isObj(init["result"])) {
    era = "legacy";
    info = init["result"];
    conn.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  } else {
    meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
      "io.modelcontextprotocol/clientCapabilities": PROBE_CAPABILITIES,
      "io.modelcontextprotocol/clientInfo": clientInfo,
    };
    const disc = await conn.request("server/discover", { _meta: meta });
    if (!isObj(disc["result"]))
      throw new ProbeError(
        `the server refused initialize (${errorText(init)}) and server/discover (${errorText(disc)})`,
      );
    era = "modern";
    info = disc["result"];
  }
  const capabilities = isObj(info["capabilities"]) ? info["capabilities"] : {};
  const result: ProbeResult = {
    era,
    protocolVersion: era === "legacy" ? String(info["protocolVersion"] ?? LEGACY_VERSION) : MODERN_VERSION,
    serverInfo: info["serverInfo"] ?? null,
    capabilities,
    tools: [],
  };
  if (typeof info["instructions"] === "string") result.instructions = info["instructions"];
  const withMeta = (p: Msg): Msg => (meta ? { ...p, _meta: meta } : p);

  const listAll = async (
    method: string,
    field: string,
    required: boolean,
  ): Promise<unknown[] | undefined> => {
    const items: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await conn.request(method, withMeta(cursor === undefined ? {} : { cursor }));
      const r = res["result"];
      if (!isObj(r)) {
        if (!required && page === 0) return undefined;
        throw new ProbeError(`${method} failed: ${errorText(res)}`);
      }
      const got = r[field];
      if (!Array.isArray(got))
        throw new ProbeError(
          `the answer to ${method}: ${field}: expected a list, got ${got === undefined ? "nothing" : typeof got}`,
        );
      items.push(...(got as unknown[]));
      const next = r["nextCursor"];
      if (next === undefined || next === null) return items;
      if (typeof next !== "string")
        throw new ProbeError(`the answer to ${method}: nextCursor: expected a string, got ${typeof next}`);
      if (cursors.has(next))
        throw new ProbeError(`${method} repeated the cursor ${JSON.stringify(next)}: the listing never ends`);
      cursors.add(next);
      cursor = next;
    }
    throw new ProbeError(`${method} returned more than ${MAX_PAGES} pages`);
  };

  // Tools are listed even when not declared: a server that serves undeclared tools is then pinned
  // as having none, and any tool it shows later is refused as new.
  result.tools = (await listAll("tools/list", "tools", capabilities["tools"] !== undefined)) ?? [];
  if (capabilities["prompts"] !== undefined) result.prompts = await listAll("prompts/list", "prompts", true);
  // Templates are optional even for servers with resources: an error here means "none".
  if (capabilities["resources"] !== undefined)
    result.resourceTemplates = await listAll("resources/templates/list", "resourceTemplates", false);
  // Resources are pinned like templates (issue 22): what a model reads of them is text too.
  if (capabilities["resources"] !== undefined)
    result.resources = await listAll("resources/list", "resources", false);
  return result;
}
