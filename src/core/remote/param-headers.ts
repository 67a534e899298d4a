/**
 * `x-mcp-header` (2026-07-28 Streamable HTTP, "Custom Headers from Tool Parameters"): a tool's
 * `inputSchema` may ask that some arguments be mirrored into `Mcp-Param-{Name}` headers. A
 * client MUST do so, and MUST drop from `tools/list` a tool whose annotations break the rules.
 * The bridge builds these headers from the body it judged and compares them with that body
 * before sending (judge bodies, never headers). Pure.
 */

export interface HeaderDeclaration {
  /** The chain of `properties` keys from the schema root to the annotated property. */
  path: string[];
  /** The `{Name}` of `Mcp-Param-{Name}`. */
  name: string;
}

export type ToolHeaders = { ok: true; declarations: HeaderDeclaration[] } | { ok: false; reason: string };

/** RFC 9110 §5.1 token (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(["string", "integer", "boolean"]);
const KEY = "x-mcp-header";

/** Subschema keywords an annotation may not sit under: only a chain of `properties` reaches. */
const SINGLE = [
  "items",
  "additionalItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];
const LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"];

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const where = (path: string[]): string => (path.length === 0 ? "the schema root" : path.join("."));

/** The declarations of one tool's `inputSchema`, or why the tool must be dropped. */
export function scanHeaderDeclarations(inputSchema: unknown): ToolHeaders {
  const declarations: HeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!isObj(node)) return undefined;
    if (Object.hasOwn(node, KEY)) {
      const name = node[KEY];
      if (!reachable || path.length === 0)
        return `${KEY} at ${where(path)}: expected it only on a property reached through "properties" alone`;
      if (typeof name !== "string" || !TOKEN.test(name))
        return `${KEY} at ${where(path)}: expected a header name token, got ${JSON.stringify(name)}`;
      const type = node["type"];
      if (typeof type !== "string" || !PRIMITIVE.has(type))
        return `${KEY} "${name}" at ${where(path)}: expected a string, integer or boolean property, got ${typeof type === "string" ? type : "no single type"}`;
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined)
        return `${KEY} "${name}": expected names unique regardless of case, but "${prior}" is declared too`;
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, name });
    }
    const props = node["properties"];
    if (isObj(props))
      for (const [key, child] of Object.entries(props)) {
        const bad = visit(child, [...path, key], reachable);
        if (bad) return bad;
      }
    const elsewhere = (child: unknown, label: string): string | undefined =>
      visit(child, [...path, `(${label})`], false);
    for (const k of SINGLE) {
      const bad = Object.hasOwn(node, k) ? elsewhere(node[k], k) : undefined;
      if (bad) return bad;
    }
    for (const k of LISTS) {
      const list = node[k];
      if (!Array.isArray(list)) continue;
      for (const child of list) {
        const bad = elsewhere(child, k);
        if (bad) return bad;
      }
    }
    for (const k of MAPS) {
      const map = node[k];
      if (!isObj(map)) continue;
      for (const child of Object.values(map)) {
        const bad = elsewhere(child, k);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  const bad = visit(inputSchema, [], true);
  return bad ? { ok: false, reason: bad } : { ok: true, declarations };
}

const SENTINEL_OPEN = "=?base64?";
const SENTINEL_CLOSE = "?=";

/** Whether a text can go into a header as it is (visible ASCII, space, tab; no edge spaces). */
function plain(s: string): boolean {
  if (s === "" || s !== s.trim()) return false;
  if (s.startsWith(SENTINEL_OPEN) && s.endsWith(SENTINEL_CLOSE)) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return false;
  }
  return true;
}

/** The spec's value encoding: plain text as is, anything else as `=?base64?…?=` of its UTF-8. */
export function encodeHeaderValue(s: string): string {
  return plain(s) ? s : `${SENTINEL_OPEN}${Buffer.from(s, "utf8").toString("base64")}${SENTINEL_CLOSE}`;
}

/** The text a header value stands for (undefined when its Base64 is not well formed). */
export function decodeHeaderValue(v: string): string | undefined {
  if (!(v.startsWith(SENTINEL_OPEN) && v.endsWith(SENTINEL_CLOSE) && v.length >= 11)) return v;
  const b64 = v.slice(SENTINEL_OPEN.length, -SENTINEL_CLOSE.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  return Buffer.from(b64, "base64").toString("utf8");
}

/** A primitive argument as header text, or why it cannot be one. */
function asText(v: unknown): { text: string } | { problem: string } {
  if (typeof v === "string") return { text: v };
  if (typeof v === "boolean") return { text: v ? "true" : "false" };
  if (typeof v === "number" && Number.isSafeInteger(v)) return { text: String(v) };
  const got = typeof v === "number" ? `the number ${String(v)}` : Array.isArray(v) ? "a list" : typeof v;
  return { problem: `expected a string, a boolean or an integer within ±(2^53−1), got ${got}` };
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (!isObj(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export type ParamHeaders = { ok: true; headers: Record<string, string> } | { ok: false; problem: string };

/**
 * The `Mcp-Param-*` headers of one call. An absent or null argument has no header; one that
 * cannot be written as a header is a problem: the call cannot be sent as the spec requires.
 */
export function paramHeaders(declarations: readonly HeaderDeclaration[], args: unknown): ParamHeaders {
  const headers: Record<string, string> = {};
  for (const d of declarations) {
    const v = valueAt(args, d.path);
    if (v === undefined || v === null) continue;
    const t = asText(v);
    if ("problem" in t)
      return {
        ok: false,
        problem: `argument ${d.path.join(".")} (mirrored as Mcp-Param-${d.name}): ${t.problem}`,
      };
    headers[`Mcp-Param-${d.name}`] = encodeHeaderValue(t.text);
  }
  return { ok: true, headers };
}

/**
 * Whether every mirrored header says what the judged body says: each header decodes to the text
 * of the argument at its path, and every argument with a value has its header. Returns the first
 * disagreement, or undefined.
 */
export function headerBodyMismatch(
  declarations: readonly HeaderDeclaration[],
  headers: Readonly<Record<string, string>>,
  judgedArgs: unknown,
): string | undefined {
  const byName = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const d of declarations) {
    const header = `Mcp-Param-${d.name}`;
    const sent = byName.get(header.toLowerCase());
    const v = valueAt(judgedArgs, d.path);
    if (v === undefined || v === null) {
      if (sent !== undefined) return `${header} is set but the judged arguments have no ${d.path.join(".")}`;
      continue;
    }
    const t = asText(v);
    if ("problem" in t) return `argument ${d.path.join(".")}: ${t.problem}`;
    if (sent === undefined) return `the judged arguments have ${d.path.join(".")} but ${header} is missing`;
    if (decodeHeaderValue(sent) !== t.text)
      return `${header} would say ${JSON.stringify(decodeHeaderValue(sent) ?? sent)} while the judged body says ${JSON.stringify(t.text)}`;
  }
  return undefined;
}
