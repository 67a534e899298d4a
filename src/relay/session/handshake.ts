/**
 * What the session negotiated: era, versions, both sides' identities and capabilities. Logged
 * once as a `handshake` event. Legacy sessions open with `initialize`; 2026-07-28 sessions have
 * no handshake, so the client's side is read from a request's `_meta` and the server's from
 * `server/discover` when the client asks for it.
 */
import { isRecord, MODERN_VERSION_META } from "../../core/wire/jsonrpc.js";

const META_VERSION = MODERN_VERSION_META;
const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const META_CLIENT_CAPS = "io.modelcontextprotocol/clientCapabilities";

export class SessionFacts {
  era: "unknown" | "legacy" | "modern" = "unknown";
  /** The client declared `elicitation` in `initialize`. */
  clientCanElicit = false;
  private initParams: Record<string, unknown> | undefined;
  private discoverMeta: Record<string, unknown> | undefined;
  private recorded = false;

  constructor(private readonly record: (ev: string, data: Record<string, unknown>) => void) {}

  /** A client request; returns true when its response is needed to complete the handshake. */
  clientRequest(method: string, params: unknown): boolean {
    if (method === "initialize") {
      this.initParams = isRecord(params) ? params : {};
      const caps = this.initParams.capabilities;
      this.clientCanElicit = isRecord(caps) && isRecord(caps.elicitation);
      this.era = "legacy";
      return true;
    }
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
    if (meta === undefined || typeof meta[META_VERSION] !== "string") return false;
    if (this.era === "unknown") this.era = "modern";
    if (method === "server/discover") {
      this.discoverMeta = meta;
      return true;
    }
    if (!this.recorded) this.recordModern(meta, undefined);
    return false;
  }

  /** The server's answer to `initialize` or `server/discover`. */
  serverResponse(method: string, response: Record<string, unknown>): void {
    if (this.recorded) return;
    const result = isRecord(response.result) ? response.result : undefined;
    if (method === "initialize") {
      const init = this.initParams ?? {};
      this.recorded = true;
      this.record("handshake", {
        era: "legacy",
        requestedVersion: init.protocolVersion ?? null,
        protocolVersion: result?.protocolVersion ?? null,
        clientInfo: init.clientInfo ?? null,
        serverInfo: result?.serverInfo ?? null,
        clientCapabilities: init.capabilities ?? null,
        serverCapabilities: result?.capabilities ?? null,
        ...(result ? {} : { error: response.error ?? null }),
      });
    } else if (method === "server/discover" && this.discoverMeta && result) {
      // A legacy server answers the probe with an error; the client then falls back to initialize.
      this.recordModern(this.discoverMeta, result);
    }
  }

  private recordModern(meta: Record<string, unknown>, discovered: Record<string, unknown> | undefined): void {
    this.recorded = true;
    this.record("handshake", {
      era: "modern",
      protocolVersion: meta[META_VERSION] ?? null,
      supportedVersions: discovered?.supportedVersions ?? null,
      clientInfo: meta[META_CLIENT_INFO] ?? null,
      serverInfo: discovered?.serverInfo ?? null,
      clientCapabilities: meta[META_CLIENT_CAPS] ?? null,
      serverCapabilities: discovered?.capabilities ?? null,
    });
  }
}
