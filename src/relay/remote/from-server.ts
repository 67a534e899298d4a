/**
 * Server → client: every message the SDK reads from any stream (a POST's answer, the GET
 * stream's requests and notifications) goes to the client the moment it is read. Answers are
 * matched to the client's request by id: the negotiated protocol version is set on the
 * transport, and a 2026-07-28 `tools/list` loses the tools whose `x-mcp-header` breaks the rules.
 */
import { isRecord } from "../../core/wire/jsonrpc.js";
import type { Connection } from "./connection.js";
import type { InFlight } from "./in-flight.js";
import type { ToolHeaderCache } from "./tool-headers.js";
import type { Msg, WireTransport } from "./wire-transport.js";

export interface ServerSide {
  conn: Connection;
  inFlight: InFlight;
  tools: ToolHeaderCache;
  say(line: string): void;
}

export function fromServer(s: ServerSide, t: WireTransport, m: Msg): void {
  if (s.conn.stopped) return;
  const isResponse = typeof m["method"] !== "string" && ("result" in m || "error" in m);
  if (!isResponse) {
    s.inFlight.write(m, undefined);
    return;
  }
  if (s.conn.sessions.answer(m)) return;
  const p = s.inFlight.get(m["id"]);
  if (p) s.inFlight.delete(m["id"]);
  let out = m;
  const result = isRecord(m["result"]) ? m["result"] : undefined;
  if (p?.method === "initialize" && result && typeof result["protocolVersion"] === "string")
    t.setProtocolVersion?.(result["protocolVersion"]);
  if (p?.modern && p.method === "tools/list" && result) {
    const listed = s.tools.list(result);
    for (const d of listed.dropped)
      s.say(`tool "${d.name}" left out of tools/list: its x-mcp-header annotation is invalid (${d.reason})`);
    if (listed.result !== result) out = { ...m, result: listed.result };
  }
  s.inFlight.write(out, p?.idText);
}
