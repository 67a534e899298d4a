// Reads server declarations out of a parsed config: one shape for all clients, so that install,
// uninstall and verify agree on what a server is.
import { isObject } from "./registry/common.js";
import type { ClientSpec, ConfigFile, ServerDecl } from "./types.js";

const REMOTE_TYPES = new Set([
  "http",
  "sse",
  "remote",
  "streamablehttp",
  "streamable-http",
  "ws",
  "websocket",
]);

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;
}

function keysOf(v: unknown): string[] {
  return isObject(v) ? Object.keys(v).sort() : [];
}

/** The values a server's env gives EFFECTGATE_OFF. Names are matched without regard to case, as
 *  Windows does (every spelling counts); YAML and TOML may write a number or a boolean. */
function offValuesOf(env: unknown): string[] {
  if (!isObject(env)) return [];
  return Object.entries(env)
    .filter(([k]) => k.toUpperCase() === "EFFECTGATE_OFF")
    .map(([, v]) => v)
    .filter((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")
    .map(String);
}

export function declare(
  spec: ClientSpec,
  name: string,
  at: (string | number)[],
  raw: unknown,
  key?: string,
): ServerDecl {
  const base: ServerDecl = { name, at, kind: "invalid", envNames: [], headerNames: [] };
  if (key !== undefined) base.key = key;
  if (!isObject(raw)) return { ...base, problem: "the declaration is not a mapping" };
  base.envNames = keysOf(raw[spec.envKey]);
  const off = offValuesOf(raw[spec.envKey]);
  if (off.length > 0) base.offValues = off;
  const headers = isObject(raw.requestOptions)
    ? raw.requestOptions.headers
    : (raw.headers ?? raw.http_headers);
  base.headerNames = keysOf(headers);
  if (typeof raw.cwd === "string") base.cwd = raw.cwd;
  if (typeof raw.type === "string") base.type = raw.type;
  const url = [raw.url, raw.serverUrl, raw.httpUrl].find((u) => typeof u === "string") as string | undefined;
  if (url !== undefined) base.url = url;
  const isRemoteType = base.type !== undefined && REMOTE_TYPES.has(base.type.toLowerCase());
  if (raw.command === undefined && (url !== undefined || isRemoteType)) return { ...base, kind: "remote" };
  if (spec.commandStyle === "argv-array") {
    const argv = stringList(raw.command);
    if (!argv || argv.length === 0)
      return { ...base, problem: "expected command to be a non-empty list of strings" };
    return { ...base, kind: "stdio", argv };
  }
  if (typeof raw.command !== "string" || raw.command === "") {
    return {
      ...base,
      problem: `expected command to be a string, got ${raw.command === undefined ? "nothing" : typeof raw.command}`,
    };
  }
  const args = raw.args === undefined ? [] : stringList(raw.args);
  if (!args) return { ...base, problem: "expected args to be a list of strings" };
  return { ...base, kind: "stdio", argv: [raw.command, ...args] };
}

function getAt(doc: unknown, at: (string | number)[]): unknown {
  let cur = doc;
  for (const key of at) {
    if (Array.isArray(cur) && typeof key === "number") cur = cur[key];
    else if (isObject(cur) && typeof key === "string") cur = cur[key];
    else return undefined;
  }
  return cur;
}

export function serversOf(spec: ClientSpec, file: ConfigFile, doc: unknown): ServerDecl[] {
  const out: ServerDecl[] = [];
  for (const c of spec.containers(doc, file)) {
    const holder = getAt(doc, c.at);
    if (Array.isArray(holder)) {
      holder.forEach((item, i) => {
        const own = isObject(item) && typeof item.name === "string" ? item.name : undefined;
        out.push(declare(spec, c.label + (own ?? `#${i}`), [...c.at, i], item, own));
      });
    } else if (isObject(holder)) {
      for (const [name, raw] of Object.entries(holder)) {
        // A map at the top level of a file (`.agents/mcp.json`) may carry `$schema`.
        if (c.at.length === 0 && name.startsWith("$")) continue;
        out.push(declare(spec, c.label + name, [...c.at, name], raw, name));
      }
    }
  }
  return out;
}
