// Real session logs for replay, status and eval tests: the built relay in front of the echo
// fixture server, at a given level and name, sent a handshake and some tools/call requests.
import { join } from "node:path";
import { type Msg, type sandbox, session } from "./pins.js";

export const ECHO = join(import.meta.dirname, "..", "fixtures", "servers", "echo.mjs");

export const tool = (id: number, name: string, args: Record<string, unknown>): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const HANDSHAKE: Msg[] = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/** One relay session through the echo server; `extra` are relay options before `--`. */
export async function echoSession(
  box: ReturnType<typeof sandbox>,
  o: { level: string; name?: string; extra?: string[] },
  calls: Msg[],
): Promise<{ answers: Map<number, Msg>; stderr: string; code: number | null }> {
  const args = [
    "--level",
    o.level,
    ...(o.name !== undefined ? ["--name", o.name] : []),
    ...(o.extra ?? []),
    "--",
    process.execPath,
    ECHO,
  ];
  return session(box, args, [...HANDSHAKE, ...calls]);
}
