// `install --remote` for Codex's TOML (decision 0115). A remote server is a `[mcp_servers.NAME]`
// table with `url` and, for its headers, `http_headers` (values), `env_http_headers` (header →
// variable) and `bearer_token_env_var`, each as a line of the table or a sub-table of its own.
// smol-toml cannot write comments back, so the edit is text: the `url` line becomes the
// `command`, `args`, `env` and `env_vars` lines, and the header lines or sub-tables go. Every
// other byte stays. The declaration's text is the table with the sub-tables right after it; a
// server written any other way (inline, dotted keys, a sub-table elsewhere) is left to the user.
// Each located line is proved by parsing the table without it (decision 0045's probing).
import { isDeepStrictEqual } from "node:util";
import { parse } from "smol-toml";
import { parseServerUrl } from "../core/remote/server-url.js";
import { applyTextEdits, type Edit, eolOf, lineEnd } from "./editors/view.js";
import { isObject } from "./registry/common.js";
import {
  plainData,
  type RemoteFormat,
  type RemoteWrap,
  type RemoteWrapInput,
  remoteWords,
  textHash,
  transportOf,
} from "./remote-words.js";

/** Members a remote Codex server has that a stdio one does not. */
const HEADER_KEYS = ["http_headers", "env_http_headers", "bearer_token_env_var"] as const;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Header {
  start: number;
  /** The table's key path; undefined for an array of tables or a line that is not a header. */
  path: string[] | undefined;
}

function tablePath(line: string): string[] | undefined {
  let v: unknown;
  try {
    v = parse(line);
  } catch {
    return undefined;
  }
  const path: string[] = [];
  while (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return path;
    if (keys.length > 1) return undefined;
    const k = keys[0] as string;
    path.push(k);
    v = v[k];
  }
  return undefined;
}

/** Every line that starts with `[`: table headers (and, rarely, text a parse will disprove). */
function headers(body: string): Header[] {
  const out: Header[] = [];
  for (let i = 0; ;) {
    const end = lineEnd(body, i);
    const line = body.slice(i, end);
    if (/^[ \t]*\[/.test(line))
      out.push({ start: i, path: /^[ \t]*\[\[/.test(line) ? undefined : tablePath(line) });
    const nl = body.indexOf("\n", end);
    if (nl === -1) return out;
    i = nl + 1;
  }
}

const under = (path: string[] | undefined, at: readonly (string | number)[]): boolean =>
  path !== undefined && path.length > at.length && isDeepStrictEqual(path.slice(0, at.length), at);

interface Table {
  start: number;
  end: number;
  /** Where the table's own lines end (its first sub-table, or the end). */
  ownEnd: number;
  subtables: { key: string; start: number; end: number; deeper: boolean }[];
}

function table(body: string, at: readonly (string | number)[]): Table | string {
  const hs = headers(body);
  const k = hs.findIndex((h) => h.path !== undefined && isDeepStrictEqual(h.path, at));
  if (k === -1)
    return "expected the server as a [mcp_servers.NAME] table of its own (inline or dotted keys: convert it by hand)";
  let j = k + 1;
  while (j < hs.length && under(hs[j]?.path, at)) j++;
  const end = j < hs.length ? (hs[j] as Header).start : body.length;
  const subs = hs.slice(k + 1, j).map((h, n, all) => ({
    key: String(h.path?.[at.length]),
    start: h.start,
    end: all[n + 1]?.start ?? end,
    deeper: (h.path?.length ?? 0) > at.length + 1,
  }));
  return { start: (hs[k] as Header).start, end, ownEnd: subs[0]?.start ?? end, subtables: subs };
}

function valueAt(doc: unknown, at: readonly (string | number)[]): unknown {
  let cur = doc;
  for (const k of at) cur = isObject(cur) ? cur[k as string] : undefined;
  return cur;
}

/** The declaration the text `t` (a table and its sub-tables) declares, as plain data. */
function declared(t: string, at: readonly (string | number)[]): unknown {
  try {
    return plainData(valueAt(parse(t), at));
  } catch {
    return undefined;
  }
}

const withoutKey = (raw: Record<string, unknown>, key: string): unknown => {
  const { [key]: _gone, ...rest } = raw;
  return plainData(rest);
};

/**
 * The bytes (table-relative) that hold `key`: one line of the table, or one sub-table. Proved
 * by parsing the table without them: exactly that member must be gone.
 */
function memberRange(
  text: string,
  t: Table,
  key: string,
  raw: Record<string, unknown>,
  at: readonly (string | number)[],
): { start: number; end: number; line: boolean } | undefined {
  const want = withoutKey(raw, key);
  const proves = (s: number, e: number): boolean =>
    isDeepStrictEqual(declared(text.slice(0, s) + text.slice(e), at), want);
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const line = new RegExp(`^[ \\t]*(${esc}|"${esc}"|'${esc}')[ \\t]*=`);
  const ownEnd = t.ownEnd - t.start;
  // The table's own lines, after its header.
  for (let i = text.indexOf("\n") + 1 || ownEnd; i < ownEnd;) {
    const nl = text.indexOf("\n", i);
    const next = nl === -1 ? text.length : Math.min(nl + 1, ownEnd);
    if (line.test(text.slice(i, next)) && proves(i, next)) return { start: i, end: next, line: true };
    i = next;
  }
  for (const s of t.subtables) {
    if (s.key !== key || s.deeper) continue;
    const [a, b] = [s.start - t.start, s.end - t.start];
    if (proves(a, b)) return { start: a, end: b, line: false };
  }
  return undefined;
}

const isStringMap = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === "string");

function wrap(o: RemoteWrapInput): RemoteWrap | string {
  const { body, decl, raw, launcher, flags } = o;
  if (typeof raw["url"] !== "string") return "no url to bridge";
  const url = parseServerUrl(raw["url"]);
  if (!url.ok) return url.error.replace(/^--url: /, "its URL: ");
  if (raw["env"] !== undefined || raw["env_vars"] !== undefined)
    return "it has an env or env_vars of its own already; convert it by hand";
  const values = raw["http_headers"];
  if (values !== undefined && !isStringMap(values))
    return "its http_headers are not a table of names to strings";
  const fromEnv = raw["env_http_headers"];
  if (
    fromEnv !== undefined &&
    !(isStringMap(fromEnv) && Object.values(fromEnv).every((v) => VARIABLE.test(v)))
  )
    return "its env_http_headers are not a table of header names to environment variable names";
  const bearer = raw["bearer_token_env_var"];
  if (bearer !== undefined && !(typeof bearer === "string" && VARIABLE.test(bearer)))
    return "its bearer_token_env_var is not an environment variable name";

  const t = table(body, decl.at);
  if (typeof t === "string") return t;
  const original = body.slice(t.start, t.end);
  if (!isDeepStrictEqual(declared(original, decl.at), plainData(raw)))
    return "its table does not hold the whole declaration (a sub-table elsewhere?); convert it by hand";

  const words = remoteWords({
    launcher,
    flags,
    url: url.server.identity,
    transport: transportOf(decl),
    headers: {
      ...(values !== undefined ? { values } : {}),
      ...(fromEnv !== undefined ? { fromEnv } : {}),
      ...(typeof bearer === "string" ? { bearerEnv: bearer } : {}),
    },
  });
  const { after, env, passed } = words;
  const urlAt = memberRange(original, t, "url", raw, decl.at);
  if (!urlAt?.line) return 'url: expected a line `url = "…"` in the server\'s table';
  const eol = eolOf(body);
  const urlLine = original.slice(urlAt.start, urlAt.end);
  const indent = /^[ \t]*/.exec(urlLine)?.[0] ?? "";
  const q = (v: string): string => JSON.stringify(v);
  const lines = [
    `command = ${q(after[0] ?? "")}`,
    `args = [${after.slice(1).map(q).join(", ")}]`,
    ...(Object.keys(env).length > 0
      ? [
          `env = { ${Object.entries(env)
            .map(([k, v]) => `${k} = ${q(v)}`)
            .join(", ")} }`,
        ]
      : []),
    ...(passed.length > 0 ? [`env_vars = [${passed.map(q).join(", ")}]`] : []),
  ];
  const lineEol = urlLine.endsWith("\n") ? (urlLine.endsWith("\r\n") ? "\r\n" : "\n") : "";
  const local: Edit[] = [
    {
      offset: urlAt.start,
      length: urlAt.end - urlAt.start,
      text: lines.map((l) => indent + l).join(eol) + lineEol,
    },
  ];
  for (const key of HEADER_KEYS) {
    if (raw[key] === undefined) continue;
    const r = memberRange(original, t, key, raw, decl.at);
    if (!r) return `${key}: expected a line or a sub-table of the server's table`;
    local.push({ offset: r.start, length: r.end - r.start, text: "" });
  }

  const entry: Record<string, unknown> = { ...raw };
  for (const key of ["url", ...HEADER_KEYS]) delete entry[key];
  entry["command"] = after[0];
  entry["args"] = after.slice(1);
  if (Object.keys(env).length > 0) entry["env"] = env;
  if (passed.length > 0) entry["env_vars"] = passed;
  let wrote: string;
  try {
    wrote = applyTextEdits(original, local);
  } catch (err) {
    return `cannot edit: ${(err as Error).message}`;
  }
  if (!isDeepStrictEqual(declared(wrote, decl.at), plainData(entry)))
    return "the edited table did not read back as the wrapped server";
  return {
    edits: [{ offset: t.start, length: t.end - t.start, text: wrote }],
    entry,
    before: ["--url", url.server.identity],
    after,
    original,
    wroteHash: textHash(wrote),
  };
}

export const tomlRemote: RemoteFormat = {
  wrap,
  span(body, at) {
    const t = table(body, at);
    return typeof t === "string" ? t : { start: t.start, end: t.end };
  },
  entryOf(original, _body, _start, at) {
    const value = declared(original, at);
    return value === undefined ? "the remembered original does not parse" : { value };
  },
};
