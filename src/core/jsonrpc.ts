/**
 * Classifies parsed JSON-RPC messages. Only shapes are judged here; nothing is rewritten.
 * Ids keep their JSON type: `1` and `"1"` are different ids (JsonRpcId).
 */
import { JUDGED_METHODS } from "./gate.js";
import type { JsonRpcId } from "./types.js";
import { foldedValues, foldKey, foldVariants } from "./key-fold.js";
import { closingQuote } from "./strict-json.js";
import { isSpace } from "./json-chars.js";

export type Message = Record<string, unknown>;

export type Classified =
  | { kind: "request"; id: JsonRpcId; method: string; params: unknown; msg: Message }
  | { kind: "notification"; method: string; params: unknown; msg: Message }
  | { kind: "response"; id: JsonRpcId | null; msg: Message }
  | { kind: "batch"; members: Classified[] }
  /** `method`/`id` are kept when readable, so an ill-formed judged call is still recognised. */
  | { kind: "invalid"; reason: string; method?: string; id?: unknown; params?: unknown };

export const MODERN_VERSION_META = "io.modelcontextprotocol/protocolVersion";

export function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

/**
 * An integer id beyond 2^53: a valid JSON-RPC id that JSON.parse rounds (9007199254740993 reads
 * as 9007199254740992). It is accepted as an id; the relay tracks it by the rounded value and
 * answers it with the spelling the client wrote (messageIdSpellings).
 */
export function isRoundedIntegerId(id: unknown): id is number {
  return typeof id === "number" && Number.isInteger(id) && !Number.isSafeInteger(id);
}

function idProblem(id: unknown): string {
  return `expected a string or integer id, got ${id === null ? "null" : typeof id}`;
}

function isObject(v: unknown): v is Message {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function classify(value: unknown): Classified {
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: "invalid", reason: "empty batch" };
    return { kind: "batch", members: value.map(classifyOne) };
  }
  return classifyOne(value);
}

function classifyOne(value: unknown): Classified {
  if (!isObject(value))
    return {
      kind: "invalid",
      reason: `expected a JSON-RPC object, got ${Array.isArray(value) ? "a nested list" : typeof value}`,
    };
  const msg = value;
  if ("method" in msg) {
    const method = msg.method;
    if (typeof method !== "string")
      return { kind: "invalid", reason: `expected a string method, got ${typeof method}` };
    const params = msg.params;
    if (!("id" in msg)) {
      // A judged method without an id is ill-formed, not a notification to wave through.
      if (JUDGED_METHODS.has(method))
        return { kind: "invalid", reason: `${method} without an id`, method, params };
      return { kind: "notification", method, params, msg };
    }
    if (!isValidId(msg.id) && !isRoundedIntegerId(msg.id)) {
      return {
        kind: "invalid",
        reason: idProblem(msg.id),
        method,
        id: msg.id,
        params,
      };
    }
    return { kind: "request", id: msg.id, method, params, msg };
  }
  if ("result" in msg || "error" in msg) {
    const id = msg.id;
    if (id === null || id === undefined) return { kind: "response", id: null, msg };
    if (!isValidId(id) && !isRoundedIntegerId(id)) return { kind: "invalid", reason: idProblem(id), id };
    return { kind: "response", id, msg };
  }
  return { kind: "invalid", reason: "neither a request, a notification nor a response" };
}

/**
 * Why a judged request cannot be judged as it stands, or undefined when it can.
 * params must be an object (or absent); so must `arguments`.
 */
export function paramsProblem(method: string, params: unknown): string | undefined {
  if (params === undefined) return method === "tools/call" ? "tools/call without params" : undefined;
  if (!isObject(params)) return `${method}: expected params to be an object, got ${describe(params)}`;
  if ("arguments" in params && params.arguments !== undefined && !isObject(params.arguments)) {
    return `${method}: expected arguments to be an object, got ${describe(params.arguments)}`;
  }
  if (method === "tools/call" && typeof params.name !== "string")
    return `tools/call: expected name to be a string, got ${describe(params.name)}`;
  return undefined;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v;
}

/** A 2026-07-28 request names its protocol version in `params._meta`. */
export function isModernRequest(params: unknown): boolean {
  if (!isObject(params)) return false;
  const meta = params._meta;
  return isObject(meta) && typeof meta[MODERN_VERSION_META] === "string";
}

/**
 * Whether text that could not be parsed (or parsed into something that is not a message) still
 * looks like a judged call. Deliberately loose, because a lenient server decides what it reads:
 * escapes (`tools\/call`, `\u0074ools/call`, JSON5's `\x74` and `t\ools`), case and whitespace
 * must not slip past, so the text is tested as written and once more with every escape decoded
 * and all whitespace removed (docs/decisions/0058-line-breaks-outputs-and-remote-paths.md).
 */
const LOOKS_JUDGED = /tools.{0,6}call|resources.{0,6}read|prompts.{0,6}get/i;
export function looksLikeJudgedCall(text: string): boolean {
  return LOOKS_JUDGED.test(text) || LOOKS_JUDGED.test(unescaped(text));
}

/**
 * `text` with `\uXXXX`, `\u{X…}` and `\xXX` decoded, any other backslash dropped (`\/` is `/`,
 * `\t` reads as `t`: extra matches only ever refuse more), and whitespace removed.
 */
function unescaped(text: string): string {
  return text
    .replace(
      /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/g,
      (_m, b: string, u: string, x: string) =>
        String.fromCodePoint(Math.min(parseInt(b ?? u ?? x, 16), 0x10ffff)),
    )
    .replace(/\\/g, "")
    .replace(/\s+/g, "");
}

/** Longer than any match of LOOKS_JUDGED (`resources` + 6 + `read`). */
const WATCH_TAIL = 32;
/** Longer than any escape `unescaped` decodes (`\u{10FFFF}`). */
const ESCAPE_CHARS = 10;

/**
 * looksLikeJudgedCall over a text that arrives in pieces (a line too large to keep whole), with
 * the answer it gives on the whole text. The raw text is tested with the end of the last piece
 * before it; the unescaped text likewise, its pieces cut only where no escape can straddle the
 * cut (before a backslash among the last few characters, which waits for the next piece), so
 * decoding and whitespace removal give the whole text's result piece by piece.
 */
export class JudgedCallWatch {
  private seen = false;
  private rawTail = "";
  /** Raw text from a backslash near the end of the last piece, not yet decoded. */
  private held = "";
  private plainTail = "";

  add(piece: string): void {
    if (this.seen || piece.length === 0) return;
    const raw = this.rawTail + piece;
    this.rawTail = raw.slice(-WATCH_TAIL);
    const text = this.held + piece;
    const slash = text.indexOf("\\", Math.max(0, text.length - ESCAPE_CHARS));
    this.held = slash === -1 ? "" : text.slice(slash);
    this.seen = LOOKS_JUDGED.test(raw) || this.plain(slash === -1 ? text : text.slice(0, slash));
  }

  /** The whole text looks like a judged call. */
  found(): boolean {
    if (!this.seen && this.held.length > 0) this.seen = this.plain(this.held);
    this.held = "";
    return this.seen;
  }

  private plain(text: string): boolean {
    const plain = this.plainTail + unescaped(text);
    this.plainTail = plain.slice(-WATCH_TAIL);
    return LOOKS_JUDGED.test(plain);
  }
}

export function isRecord(v: unknown): v is Message {
  return isObject(v);
}

/**
 * Every string a message-level `method` key holds in `text` (valid JSON), duplicates included,
 * decoded, whatever the case of the key (`"Method"`: Go's encoding/json matches names that way).
 * Message level is the top object, or each object directly inside a top-level batch.
 * JSON.parse keeps the last of duplicate keys while a server may keep the first, so a frame with
 * duplicate keys is judged by every spelling, not only the one JSON.parse chose. A non-string
 * `method` value is reported as `undefined` (it cannot be classified).
 */
export function methodSpellings(text: string): Array<string | undefined> {
  const out: Array<string | undefined> = [];
  // Per open container: is it an object, and is the next string a key?
  const stack: Array<{ object: boolean; expectKey: boolean }> = [];
  let topIsArray = false;
  let pendingMethod = false; // just read a message-level "method" key; its value comes next
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      const raw = text.slice(i, end + 1);
      const decoded = (): string => (raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1));
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        const messageLevel = stack.length === 1 || (stack.length === 2 && topIsArray);
        // Folded: a Go server reads "Method" or "METHOD" as the method too (key-fold.ts).
        pendingMethod = messageLevel && foldKey(decoded()) === "method";
      } else if (pendingMethod) {
        out.push(decoded());
        pendingMethod = false;
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length === 0) topIsArray = c === 0x5b;
      if (pendingMethod) out.push(undefined);
      pendingMethod = false;
      stack.push({ object: c === 0x7b, expectKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      if (top?.object) top.expectKey = true;
    } else if (pendingMethod && c !== 0x3a /* : */ && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      out.push(undefined); // a number, true, false or null
      pendingMethod = false;
    }
    i++;
  }
  return out;
}

/**
 * The judged method a frame with duplicate keys may name, or undefined when none of its
 * spellings can be. A spelling that is not a string, or only loosely looks like a judged one,
 * counts: the relay cannot say what the server will read.
 */
export function ambiguousJudgedMethod(text: string): string | undefined {
  for (const s of methodSpellings(text)) {
    if (s === undefined) {
      if (looksLikeJudgedCall(text)) return "tools/call";
      continue;
    }
    if (JUDGED_METHODS.has(s)) return s;
    if (looksLikeJudgedCall(s)) return "tools/call";
  }
  return undefined;
}

/** Members of a JSON-RPC message and of a request's params that a server reads by name. */
const ENVELOPE_NAMES = ["jsonrpc", "id", "method", "params", "result", "error"] as const;
const PARAMS_NAMES = [
  "name",
  "arguments",
  "uri",
  "_meta",
  "task",
  "cursor",
  "requestState",
  "inputResponses",
] as const;

/**
 * Why a client frame can be read another way by a server that matches member names without
 * regard to case (Go's encoding/json: `"Method"`, `"PARAMS"`, `"Arguments"`, `"paramſ"`), or
 * undefined. Such a member is a second spelling of the one effectgate judges, like a duplicate
 * key, and refuses a judged call the same way.
 */
export function foldedKeyProblem(value: unknown): string | undefined {
  const messages = Array.isArray(value) ? value : [value];
  for (const m of messages) {
    if (!isObject(m)) continue;
    const problem = foldProblemIn(m, ENVELOPE_NAMES, "") ?? paramsFoldProblem(m.params);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function paramsFoldProblem(params: unknown): string | undefined {
  return isObject(params) ? foldProblemIn(params, PARAMS_NAMES, "params.") : undefined;
}

function foldProblemIn(obj: Message, names: readonly string[], where: string): string | undefined {
  const variant = foldVariants(obj, names)[0];
  if (variant === undefined) return undefined;
  const meant = names.find((n) => foldKey(n) === foldKey(variant)) ?? variant;
  return `member ${where}${JSON.stringify(variant)} is "${meant}" in another case: a server that matches names without regard to case (Go's encoding/json) reads it as ${where}${meant}`;
}

/** One way a client could read a server message as a response: with this id, this answer. */
export interface AnswerReading {
  id: unknown;
  /** The response as that reader sees it (its `result` or `error` member, and `id`). */
  msg: Message;
  /** `exact`: members by their exact names; `case-folded`: as Go's encoding/json matches them. */
  how: "exact" | "case-folded";
}

/**
 * Every (id, answer) pair some client could read from one server message object. The exact
 * reading counts whenever there is a `result` or `error`, whatever else the object holds (the
 * Python SDK takes `{"id":1,"method":null,"result":…}` for a response). Members whose names
 * differ from `id`, `result` or `error` only in case are read by Go clients, last one winning;
 * every pairing of them is a reading, so the order of members never matters here.
 */
export function answerReadings(m: Message): AnswerReading[] {
  const out: AnswerReading[] = [];
  if ("id" in m && ("result" in m || "error" in m)) out.push({ id: m.id, msg: m, how: "exact" });
  if (foldVariants(m, ["id", "result", "error"]).length === 0) return out;
  const ids = foldedValues(m, "id");
  const answers = [
    ...foldedValues(m, "result").map((v) => ({ result: v })),
    ...foldedValues(m, "error").map((v) => ({ error: v })),
  ];
  for (const [i, id] of ids.entries())
    for (const [j, answer] of answers.entries()) {
      // The first id with the first answer is the exact reading when both are spelled exactly.
      if (i === 0 && j === 0 && out.length > 0) continue;
      out.push({ id, msg: { id, ...answer }, how: "case-folded" });
    }
  return out;
}

/**
 * The raw text of each message-level `id` value in `text` (valid JSON), by message: index 0 for
 * a single message, the member's index for a batch. For ids JSON.parse cannot keep exact
 * (isRoundedIntegerId): an answer must carry the client's own spelling.
 */
export function messageIdSpellings(text: string): Map<number, string> {
  const out = new Map<number, string>();
  const stack: Array<{ object: boolean; expectKey: boolean }> = [];
  let topIsArray = false;
  let index = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        const messageLevel = stack.length === 1 || (stack.length === 2 && topIsArray);
        const raw = text.slice(i, end + 1);
        const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (messageLevel && key === "id") {
          let j = end + 1;
          while (j < n && (isSpace(text.charCodeAt(j)) || text.charCodeAt(j) === 0x3a)) j++;
          let k = j;
          while (k < n && !/[\s,}\]]/.test(text.charAt(k))) k++;
          out.set(topIsArray ? index : 0, text.slice(j, k));
        }
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length === 0) topIsArray = c === 0x5b;
      stack.push({ object: c === 0x7b, expectKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      if (top?.object) top.expectKey = true;
      if (stack.length === 1 && topIsArray) index++;
    }
  }
  return out;
}
