import { constants as osConstants } from "node:os";
import { spawnServer, type ServerProcess } from "./spawn-server.js";
import { parseStrictJson } from "../../core/json/strict-json.js";
import { childEndpoint, type ServerEndpoint } from "../session/endpoint.js";

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
/**
 * Every capability a client may declare, so the server shows every tool it has for any client.
 * The experimental `tasks` part is what the reference server wants for its task-based tools.
 */
export const PROBE_CAPABILITIES = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
  tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
} as const;

/** A request from the server, answered as a client with nobody at the keyboard would. */
export function answerServerRequest(method: string): { result: Msg } | { error: Msg } {
  switch (method) {
    case "ping":
      return { result: {} };
    case "roots/list":
      return { result: { roots: [] } };
    case "elicitation/create":
      return { result: { action: "decline" } };
    case "sampling/createMessage":
      // MCP's code for a request the user rejected.
      return {
        error: { code: -1, message: "effectgate approve does not sample: nobody is asked while it probes" },
      };
    default:
      return { error: { code: -32601, message: `effectgate approve does not answer ${method}` } };
  }
}
const MAX_PAGES = 10_000;

/** How long a server has to leave after its stdin closes, and after SIGTERM, before the next step. */
const GRACE_AFTER_EOF_MS = 2000;
const GRACE_AFTER_TERM_MS = 1000;

/**
 * The one place the probe starts a process: the relay's own launcher, so `approve` resolves the
 * command (PATH, Windows .cmd shims) exactly as the relay that will run it later. In a process
 * group of its own, like the relay's server: `npx -y pkg` is npx, a shell and node, and stopping
 * npx alone would leave the server itself running after `approve` has exited.
 */
async function startServer(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  return spawnServer(argv, env, process.cwd(), true);
}

/** The probe did not get what it needed from the server: `approve` exits 1 with this text. */
export class ProbeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProbeError";
  }
}

/**
 * `approve` itself got SIGINT or SIGTERM while probing. The server runs in its own process group,
 * so a terminal's Ctrl-C does not reach it: the probe passes the signal on, stops the server, and
 * `approve` exits 128 + the signal's number, as the shell would report.
 */
export class ProbeInterrupted extends ProbeError {
  readonly exitCode: number;
  constructor(readonly signal: "SIGINT" | "SIGTERM") {
    super(`interrupted by ${signal}; the server was stopped and nothing was written`);
    this.name = "ProbeInterrupted";
    this.exitCode = 128 + osConstants.signals[signal];
  }
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

type Msg = Record<string, unknown>;
const isObj = (v: unknown): v is Msg => typeof v === "object" && v !== null && !Array.isArray(v);

class Connection {
  private nextId = 1;
  private buffered: Buffer = Buffer.alloc(0);
  private readonly pending = new Map<
    number,
    { method: string; resolve: (m: Msg) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private exited: string | undefined;
  private interrupted: ProbeInterrupted | undefined;
  readonly done: Promise<void>;

  constructor(
    private readonly child: ServerEndpoint,
    private readonly timeoutMs: number,
    onStderr?: (t: string) => void,
  ) {
    child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    child.stderr.on("data", (chunk: Buffer) => onStderr?.(chunk.toString("utf8")));
    child.stdin.on("error", () => undefined); // EPIPE after the server died: reported via exit
    this.done = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exited = signal ? `signal ${signal}` : `code ${code}`;
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          p.reject(new ProbeError(`the server exited (${this.exited}) before answering ${p.method}`));
          this.pending.delete(id);
        }
        resolve();
      });
    });
  }

  private onData(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (let nl = this.buffered.indexOf(10); nl >= 0; nl = this.buffered.indexOf(10)) {
      const line = this.buffered.subarray(0, nl).toString("utf8").replace(/\r$/, "");
      this.buffered = this.buffered.subarray(nl + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    const parsed = parseStrictJson(line);
    if (!parsed.ok) {
      // Chatter on stdout is a server bug, not a reason to fail; but an answer we cannot read
      // unambiguously (duplicate keys) must not be approved.
      const idMatch = /"id"\s*:\s*(\d+)/.exec(line);
      const p = idMatch ? this.pending.get(Number(idMatch[1])) : undefined;
      if (p && /duplicate key/.test(parsed.error))
        this.settle(
          Number(idMatch![1]),
          new ProbeError(`the answer to ${p.method} cannot be read: ${parsed.error}`),
        );
      return;
    }
    const msg = parsed.value;
    if (!isObj(msg)) return;
    if (typeof msg["method"] === "string" && msg["id"] !== undefined) {
      this.send({ jsonrpc: "2.0", id: msg["id"], ...answerServerRequest(msg["method"]) });
      return;
    }
    if (typeof msg["id"] === "number" && ("result" in msg || "error" in msg)) this.settle(msg["id"], msg);
  }

  private settle(id: number, outcome: Msg | Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (outcome instanceof Error) p.reject(outcome);
    else p.resolve(outcome);
  }

  send(msg: Msg): void {
    if (this.exited === undefined) this.child.stdin.write(`${JSON.stringify(msg)}\n`);
  }

  /** The whole response message (result or error). */
  request(method: string, params: Msg): Promise<Msg> {
    if (this.interrupted) return Promise.reject(this.interrupted);
    if (this.exited !== undefined)
      return Promise.reject(new ProbeError(`the server exited (${this.exited}) before answering ${method}`));
    const id = this.nextId++;
    return new Promise<Msg>((resolve, reject) => {
      const seconds = Math.round(this.timeoutMs / 100) / 10;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ProbeError(`timed out after ${seconds}s waiting for the answer to ${method}`));
      }, this.timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** `approve` got `sig`: the server's group gets it too, and every wait ends with the interruption. */
  interrupt(sig: "SIGINT" | "SIGTERM"): void {
    this.interrupted ??= new ProbeInterrupted(sig);
    this.child.signal(sig);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(this.interrupted);
      this.pending.delete(id);
    }
  }

  /**
   * Close stdin (the portable goodbye), then escalate; resolves once the server and everything
   * it started in its group are gone.
   */
  async close(): Promise<void> {
    for (const [, p] of this.pending) clearTimeout(p.timer);
    this.pending.clear();
    if (this.exited === undefined) {
      this.child.stdin.end();
      const gone = (ms: number) =>
        Promise.race([
          this.done.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()),
        ]);
      if (!(await gone(GRACE_AFTER_EOF_MS))) {
        this.child.signal("SIGTERM");
        if (!(await gone(GRACE_AFTER_TERM_MS))) {
          this.child.signal("SIGKILL");
          await this.done;
        }
      }
    }
    await this.child.stopLeftovers(GRACE_AFTER_TERM_MS, () => undefined);
    // A process outside the group (one that called setsid) may still hold the pipes open; they
    // must not keep `approve` alive after it has what it needs.
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }
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
