// `install --remote`: a remote server's declaration becomes a stdio one that starts
// `effectgate --url …` (decision 0101). This file holds JSON and JSONC, and picks the format's
// own way for TOML (remote-wrap-toml.ts) and YAML (remote-wrap-yaml.ts). In JSON the edits
// replace the members that make a declaration remote (`url`, `type`, `headers`) and leave every
// other byte alone. Header values move into the declaration's `env` and are read with
// `--header-env`, so they never sit on a command line other users can read, nor in arguments a
// client would expand. The original declaration's text is kept in an install memo (memos.ts):
// uninstall puts it back byte for byte while the declaration is still what install wrote.
import { findNodeAtLocation, type Node, type ParseError, parseTree } from "jsonc-parser";
import { parseServerUrl } from "../core/remote/server-url.js";
import { applyTextEdits, type Edit } from "./editors/view.js";
import { isObject } from "./registry/common.js";
import { tomlRemote } from "./remote-wrap-toml.js";
import { yamlRemote } from "./remote-wrap-yaml.js";
import {
  type RemoteFormat,
  type RemoteWrap,
  type RemoteWrapInput,
  remoteWords,
  textHash,
  transportOf,
} from "./remote-words.js";
import type { Format } from "./types.js";

/** Keys a client reads a remote server's URL from (servers.ts), in the order they are tried. */
const URL_KEYS = ["url", "serverUrl", "httpUrl"];
const HEADER_KEY = "headers";

function objectAt(body: string, at: (string | number)[]): Node | string {
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  if (!root || errors.length > 0) return "the file does not parse";
  const node = findNodeAtLocation(root, at);
  if (!node || node.type !== "object") return "the declaration is not an object";
  return node;
}

function member(node: Node, key: string): { prop: Node; value: Node } | undefined {
  for (const prop of node.children ?? []) {
    const [k, v] = prop.children ?? [];
    if (k?.value === key && v) return { prop, value: v };
  }
  return undefined;
}

function wrapJson(opts: RemoteWrapInput): RemoteWrap | string {
  const { body, decl, raw, style, launcher, flags } = opts;
  const type = decl.type?.toLowerCase();
  if (type === "ws" || type === "websocket")
    return "a WebSocket server: effectgate bridges HTTP, not WebSocket";
  const urlKey = URL_KEYS.find((k) => typeof raw[k] === "string");
  if (urlKey === undefined) return "no URL to bridge";
  const url = parseServerUrl(raw[urlKey] as string);
  if (!url.ok) return url.error.replace(/^--url: /, "its URL: ");
  const headers = raw[HEADER_KEY];
  if (
    headers !== undefined &&
    (!isObject(headers) || !Object.values(headers).every((v) => typeof v === "string"))
  )
    return "its headers are not a mapping of names to strings";
  if (raw["env"] !== undefined) return "it has an env of its own already; convert it by hand";
  const node = objectAt(body, decl.at);
  if (typeof node === "string") return node;

  const { after, env } = remoteWords({
    launcher,
    flags,
    url: url.server.identity,
    transport: transportOf(decl),
    headers: { values: (headers ?? {}) as Record<string, string> },
  });
  const program = after[0] ?? "";

  const q = (v: string): string => JSON.stringify(v);
  const edits: Edit[] = [];
  const urlMember = member(node, urlKey);
  if (!urlMember) return "no URL member found";
  const command =
    style === "argv-array"
      ? `"command": [${after.map(q).join(", ")}]`
      : `"command": ${q(program)}, "args": [${after.slice(1).map(q).join(", ")}]`;
  edits.push({ offset: urlMember.prop.offset, length: urlMember.prop.length, text: command });
  const typeMember = member(node, "type");
  // opencode calls a stdio server "local"; the others "stdio" (or no type at all).
  const stdioType = style === "argv-array" ? "local" : "stdio";
  if (typeMember)
    edits.push({ offset: typeMember.value.offset, length: typeMember.value.length, text: q(stdioType) });
  const headersMember = member(node, HEADER_KEY);
  if (headersMember)
    edits.push({
      offset: headersMember.prop.offset,
      length: headersMember.prop.length,
      text: `"env": {${Object.entries(env)
        .map(([k, v]) => `${q(k)}: ${q(v)}`)
        .join(", ")}}`,
    });

  const entry: Record<string, unknown> = { ...raw };
  delete entry[urlKey];
  delete entry[HEADER_KEY];
  if (style === "argv-array") entry["command"] = after;
  else {
    entry["command"] = program;
    entry["args"] = after.slice(1);
  }
  if (typeMember) entry["type"] = stdioType;
  if (headersMember) entry["env"] = env;
  const original = body.slice(node.offset, node.offset + node.length);
  const shifted = edits.map((e) => ({ ...e, offset: e.offset - node.offset }));
  return {
    edits,
    entry,
    before: ["--url", url.server.identity],
    after,
    original,
    wroteHash: textHash(applyTextEdits(original, shifted)),
  };
}

function nodeValue(n: Node): unknown {
  if (n.type === "object") {
    const out: Record<string, unknown> = {};
    for (const prop of n.children ?? []) {
      const [k, v] = prop.children ?? [];
      if (k && v) out[String(k.value)] = nodeValue(v);
    }
    return out;
  }
  if (n.type === "array") return (n.children ?? []).map(nodeValue);
  return n.value;
}

const jsonRemote: RemoteFormat = {
  wrap: wrapJson,
  span(body, at) {
    const node = objectAt(body, at);
    return typeof node === "string" ? node : { start: node.offset, end: node.offset + node.length };
  },
  entryOf(original) {
    const errors: ParseError[] = [];
    const parsed = parseTree(original, errors, { allowTrailingComma: true, disallowComments: false });
    if (!parsed || errors.length > 0) return "the remembered original does not parse";
    return { value: JSON.parse(JSON.stringify(nodeValue(parsed))) as unknown };
  },
};

const remoteFormat = (format: Format): RemoteFormat =>
  format === "toml" ? tomlRemote : format === "yaml" ? yamlRemote : jsonRemote;

export function wrapRemote(format: Format, opts: RemoteWrapInput): RemoteWrap | string {
  return remoteFormat(format).wrap(opts);
}

/** The text of the declaration at `at` as it stands. */
export function declarationText(format: Format, body: string, at: (string | number)[]): string | undefined {
  const s = remoteFormat(format).span(body, at);
  return typeof s === "string" ? undefined : body.slice(s.start, s.end);
}

/**
 * Uninstall of a wrapped remote server: the declaration's text as it was before install, from
 * the memo. Without one (another EFFECTGATE_HOME, or the declaration was edited since) the
 * server is left wrapped and the reason is said: guessing the original shape could change what
 * the client connects to.
 */
export function unwrapRemote(
  format: Format,
  body: string,
  at: (string | number)[],
  original: string,
): { edit: Edit; entry: unknown } | string {
  const f = remoteFormat(format);
  const s = f.span(body, at);
  if (typeof s === "string") return s;
  const entry = f.entryOf(original, body, s.start, at);
  if (typeof entry === "string") return entry;
  return { edit: { offset: s.start, length: s.end - s.start, text: original }, entry: entry.value };
}
