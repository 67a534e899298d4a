// `install --remote` for Continue's YAML (decision 0115). A remote server is an item of the
// `mcpServers` list with `type: sse | streamable-http`, `url` and `requestOptions.headers`. The
// yaml package keeps every node's source range, so the edit is text: `url` becomes `command`
// and `args`, `type` becomes `stdio`, and `requestOptions` becomes the server's `env` (header
// values, read with `--header-env`). Every other byte stays. New values are written as flow
// collections of double-quoted strings, which need no indentation of their own.
import { isDeepStrictEqual } from "node:util";
import { isMap, isScalar, parse, parseDocument, type Pair, type YAMLMap } from "yaml";
import { parseServerUrl } from "../core/remote/server-url.js";
import { applyTextEdits, type Edit, eolOf } from "./editors/view.js";
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

function column(body: string, offset: number): number {
  return offset - (body.lastIndexOf("\n", offset - 1) + 1);
}

function mapAt(body: string, at: (string | number)[]): YAMLMap | string {
  const doc = parseDocument(body);
  if (doc.errors.length > 0) return "the file does not parse";
  const node = doc.getIn(at, true);
  if (!isMap(node) || !node.range) return "the declaration is not a mapping";
  if (node.flow) return "the declaration is a flow mapping ({…}); convert it by hand";
  return node;
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key);
}

/** A pair's text from its key to its value's last non-blank byte (a trailing comment goes too). */
function pairRange(body: string, p: Pair): { start: number; end: number } | undefined {
  const k = isScalar(p.key) ? p.key.range : undefined;
  const v = (p.value as { range?: [number, number, number] } | null)?.range;
  if (!k || !v) return undefined;
  let end = v[1];
  while (end > k[0] && /\s/.test(body[end - 1] ?? "")) end--;
  return { start: k[0], end };
}

/** The declaration the text (indented as at `start` in `body`) declares, as plain data. */
function declared(text: string, body: string, start: number): unknown {
  try {
    return plainData(parse(" ".repeat(column(body, start)) + text));
  } catch {
    return undefined;
  }
}

const isStringMap = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === "string");

function wrap(o: RemoteWrapInput): RemoteWrap | string {
  const { body, decl, raw, launcher, flags } = o;
  const type = decl.type?.toLowerCase();
  if (type === "ws" || type === "websocket")
    return "a WebSocket server: effectgate bridges HTTP, not WebSocket";
  if (typeof raw["url"] !== "string") return "no url to bridge";
  const url = parseServerUrl(raw["url"]);
  if (!url.ok) return url.error.replace(/^--url: /, "its URL: ");
  if (raw["env"] !== undefined) return "it has an env of its own already; convert it by hand";
  const options = raw["requestOptions"];
  if (options !== undefined && !(isObject(options) && Object.keys(options).every((k) => k === "headers")))
    return "its requestOptions hold more than headers; convert it by hand";
  const headers = isObject(options) ? options["headers"] : undefined;
  if (headers !== undefined && !isStringMap(headers))
    return "its requestOptions.headers are not a mapping of names to strings";

  const map = mapAt(body, decl.at);
  if (typeof map === "string") return map;
  const range = map.range as [number, number, number];
  const [start, end] = [range[0], range[1]];
  const { after, env } = remoteWords({
    launcher,
    flags,
    url: url.server.identity,
    transport: transportOf(decl),
    headers: headers !== undefined ? { values: headers } : {},
  });

  const q = (v: string): string => JSON.stringify(v);
  const eol = eolOf(body);
  const urlPair = pairOf(map, "url");
  const urlAt = urlPair && pairRange(body, urlPair);
  if (!urlAt) return "url: expected a `url:` member";
  const indent = " ".repeat(column(body, urlAt.start));
  const edits: Edit[] = [
    {
      offset: urlAt.start,
      length: urlAt.end - urlAt.start,
      text: `command: ${q(after[0] ?? "")}${eol}${indent}args: [${after.slice(1).map(q).join(", ")}]`,
    },
  ];
  const typePair = pairOf(map, "type");
  const typeRange = (typePair?.value as { range?: [number, number, number] } | null)?.range;
  if (typePair && typeRange)
    edits.push({ offset: typeRange[0], length: typeRange[1] - typeRange[0], text: "stdio" });
  const optionsPair = pairOf(map, "requestOptions");
  if (optionsPair) {
    const r = pairRange(body, optionsPair);
    if (!r) return "requestOptions: cannot find its text";
    edits.push({
      offset: r.start,
      length: r.end - r.start,
      text: `env: {${Object.entries(env)
        .map(([k, v]) => `${k}: ${q(v)}`)
        .join(", ")}}`,
    });
  }

  const entry: Record<string, unknown> = { ...raw };
  delete entry["url"];
  delete entry["requestOptions"];
  entry["command"] = after[0];
  entry["args"] = after.slice(1);
  if (typePair) entry["type"] = "stdio";
  if (optionsPair) entry["env"] = env;
  const original = body.slice(start, end);
  let wrote: string;
  try {
    wrote = applyTextEdits(
      original,
      edits.map((e) => ({ ...e, offset: e.offset - start })),
    );
  } catch (err) {
    return `cannot edit: ${(err as Error).message}`;
  }
  if (!isDeepStrictEqual(declared(wrote, body, start), plainData(entry)))
    return "the edited item did not read back as the wrapped server";
  // The memo's hash is of the item as uninstall will find it in the written file.
  const written = body.slice(0, start) + wrote + body.slice(end);
  const again = mapAt(written, decl.at);
  if (typeof again === "string") return `the edited file: ${again}`;
  const [a, b] = again.range as [number, number, number];
  return {
    edits,
    entry,
    before: ["--url", url.server.identity],
    after,
    original,
    wroteHash: textHash(written.slice(a, b)),
  };
}

export const yamlRemote: RemoteFormat = {
  wrap,
  span(body, at) {
    const map = mapAt(body, at);
    if (typeof map === "string") return map;
    const [start, end] = map.range as [number, number, number];
    return { start, end };
  },
  entryOf(original, body, start) {
    const value = declared(original, body, start);
    return value === undefined ? "the remembered original does not parse" : { value };
  },
};
