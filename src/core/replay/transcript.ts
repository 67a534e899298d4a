// From log entries to a transcript: one item per frame member, event, stderr line or bad line,
// plus a summary per session. Pure and deterministic: the same entries give the same transcript.
import type { JsonRpcId } from "../types.js";
import { timeOf, type EventLike, type FrameLike, type LogEntry, type RecordLike } from "./entries.js";
import { failureOf, firstText, idKey, isRecord, parseFrame, toolOf, type Message } from "./messages.js";
import { newSummary, noteHandshake, type SessionSummary } from "./summary.js";

export type Marker =
  "REFUSED" | "ASK" | "NOTED" | "OBSERVED" | "TAINT" | "PIN" | "STDERR" | "GAP" | "INVALID" | "UNASKED";

/** One transcript line. Strings are as logged (unescaped); formatting escapes them. */
export interface ReplayItem {
  line: number;
  /** The part of a rotated session the line is in, when it is not the first. */
  part?: number;
  /** Milliseconds since the session's first record; null when the time is unreadable. */
  offsetMs: number | null;
  kind: "request" | "notification" | "response" | "frame" | "stderr" | "event" | "invalid" | "exit";
  dir?: "c2s" | "s2c";
  marker?: Marker;
  method?: string;
  id?: JsonRpcId;
  tool?: string;
  /** For responses: the method of the request answered, when known. */
  answers?: string;
  latencyMs?: number;
  /** "result", "error", "tool-error" or "refusal" for responses. */
  outcome?: string;
  batch?: true;
  /** Free text: an error message, a stderr line, an event's facts. */
  detail?: string;
}

export interface ReplaySession {
  sid: string;
  start: string | null;
  header: {
    server: string[];
    name: string | null;
    cwd: string;
    platform: string;
    level: string;
    from: string;
    policy: string | null;
  } | null;
  items: ReplayItem[];
  summary: SessionSummary;
}

interface Pending {
  method: string;
  tool: string | undefined;
  at: number;
  params: unknown;
}

class SessionBuilder {
  readonly session: ReplaySession;
  private readonly start: number;
  private readonly pending = new Map<string, Pending>();
  private readonly refused = new Set<string>();
  /**
   * Calls effectgate refused whose answer it is about to write: the relay logs `decision` and
   * `refused` before it writes the answer, and writes it at once, so the answer is the next
   * s2c frame. Only that frame speaks for effectgate; this is emptied after every s2c frame.
   */
  private readonly ownAnswers = new Set<string>();
  /** Refused calls (never sent to the server), until the client reuses the id for a new call. */
  private readonly neverSent = new Map<string, Pending | null>();
  /** The server answer that matched each call, to take it back if the call turns out refused. */
  private readonly answeredBy = new Map<
    string,
    { item: ReplayItem; req: Pending; body: Record<string, unknown> }
  >();
  /** seq of each header read: the copy at the top of a later part repeats the first. */
  private readonly headers = new Set<number>();

  constructor(sid: string, first: RecordLike | undefined) {
    this.start = first ? timeOf(first.t) : NaN;
    this.session = { sid, start: first?.t ?? null, header: null, items: [], summary: newSummary() };
  }

  offset(t: string): number | null {
    const ms = timeOf(t) - this.start;
    return Number.isFinite(ms) ? ms : null;
  }

  add(line: number, r: RecordLike): void {
    const at = this.offset(r.t);
    const items = this.session.items;
    switch (r.type) {
      case "header":
        if (this.headers.has(r.seq)) return;
        this.headers.add(r.seq);
        this.session.header = {
          server: r.server,
          name: r.name,
          cwd: r.cwd,
          platform: r.platform,
          level: r.level,
          from: r.from,
          policy: r.policy ? r.policy.source : null,
        };
        return;
      case "stderr":
        items.push({ line, offsetMs: at, kind: "stderr", marker: "STDERR", detail: r.text });
        return;
      case "exit":
        items.push({
          line,
          offsetMs: at,
          kind: "exit",
          detail: `server exit code=${r.code ?? "none"} signal=${r.signal ?? "none"}; effectgate exits ${r.exitCode}`,
        });
        return;
      case "event":
        this.event(line, at, r);
        return;
      case "frame":
        this.frame(line, at, r);
        return;
    }
  }

  private frame(line: number, at: number | null, r: FrameLike): void {
    this.frameMessages(line, at, r);
    // Effectgate's own answer to a refused call is the first s2c frame after the refusal, or
    // none (its record lost): any later frame with that id is the server's.
    if (r.dir === "s2c") this.ownAnswers.clear();
  }

  private frameMessages(line: number, at: number | null, r: FrameLike): void {
    const items = this.session.items;
    if (r.text === undefined) {
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: `(not UTF-8, ${r.size} bytes)` });
      return;
    }
    const parsed = r.nonJson ? undefined : parseFrame(r.text);
    if (!parsed) {
      const what = r.truncated ? `(truncated frame, ${r.size} bytes)` : "(not JSON)";
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: `${what} ${r.text}` });
      return;
    }
    for (const m of parsed.messages) this.message(line, at ?? NaN, r.dir, m, parsed.batch);
  }

  private message(line: number, at: number, dir: "c2s" | "s2c", m: Message, batch: boolean): void {
    const offsetMs = Number.isFinite(at) ? at : null;
    const base: ReplayItem = {
      line,
      offsetMs,
      kind: "frame",
      dir,
      ...(batch ? { batch: true as const } : {}),
    };
    const s = this.session.summary;
    if (m.kind === "other") {
      this.session.items.push({ ...base, detail: m.why });
      return;
    }
    if (m.kind === "notification") {
      this.session.items.push({ ...base, kind: "notification", method: m.method });
      return;
    }
    if (m.kind === "request") {
      const tool = toolOf(m.method, m.params);
      this.pending.set(idKey(dir, m.id), { method: m.method, tool, at, params: m.params });
      // A new call under a refused call's id may well be sent and answered.
      this.neverSent.delete(idKey(dir, m.id));
      this.answeredBy.delete(idKey(dir, m.id));
      if (m.method === "tools/call" && dir === "c2s") s.noteCall(idKey(dir, m.id), tool ?? "(no name)");
      if (m.method === "initialize" && dir === "c2s" && isRecord(m.params))
        noteHandshake(s, { clientInfo: m.params["clientInfo"] });
      this.session.items.push({
        ...base,
        kind: "request",
        method: m.method,
        id: m.id,
        tool,
      });
      return;
    }
    const key = idKey(dir === "c2s" ? "s2c" : "c2s", m.id);
    const own = dir === "s2c" && this.ownAnswers.delete(key);
    const req = this.pending.get(key);
    this.pending.delete(key);
    const failure = failureOf(m.body);
    const outcome = own ? "refusal" : failure ? ("error" in m.body ? "error" : "tool-error") : "result";
    const item: ReplayItem = { ...base, kind: "response", id: m.id, outcome };
    if (req) {
      item.answers = req.method;
      if (req.tool !== undefined) item.tool = req.tool;
      const latency = at - req.at;
      if (Number.isFinite(latency)) item.latencyMs = latency;
      // Every answer is noted; the summary counts only those to the client's tools/call requests.
      s.noteAnswer(key, outcome);
      const result = m.body["result"];
      if (req.method === "initialize" && isRecord(result))
        noteHandshake(s, { protocolVersion: result["protocolVersion"], serverInfo: result["serverInfo"] });
      if (req.method === "tools/list" && isRecord(result) && Array.isArray(result["tools"])) {
        for (const t of result["tools"])
          if (isRecord(t) && typeof t["name"] === "string") s.tools.add(t["name"]);
      }
      if (dir === "s2c" && !own) this.answeredBy.set(key, { item, req, body: m.body });
    }
    if (failure)
      item.detail = failure.code === undefined ? failure.message : `${failure.code} ${failure.message}`;
    if (dir === "s2c" && !own && !req && this.neverSent.has(key))
      unasked(item, m.body, this.neverSent.get(key) ?? undefined);
    this.session.items.push(item);
  }

  /**
   * Effectgate refused `id`: its answer is the next s2c frame. A server answer logged before the
   * refusal (between the call and its judgement) answered a call the server never received:
   * it is marked as such, and the call waits for effectgate's answer again.
   */
  private refusing(id: JsonRpcId): void {
    const key = idKey("c2s", id);
    this.ownAnswers.add(key);
    const early = this.answeredBy.get(key);
    this.answeredBy.delete(key);
    if (early && !this.pending.has(key)) {
      this.pending.set(key, early.req);
      unasked(early.item, early.body, early.req);
    }
    this.neverSent.set(key, this.pending.get(key) ?? null);
  }

  private event(line: number, at: number | null, r: EventLike): void {
    const d = r.data;
    const items = this.session.items;
    const str = (k: string): string | undefined => (typeof d[k] === "string" ? (d[k] as string) : undefined);
    const id = typeof d["id"] === "string" || typeof d["id"] === "number" ? d["id"] : undefined;
    switch (r.ev) {
      case "handshake":
        noteHandshake(this.session.summary, d);
        items.push({
          line,
          offsetMs: at,
          kind: "event",
          method: "handshake",
          detail: `protocol ${str("protocolVersion") ?? "?"}`,
        });
        return;
      case "decision": {
        const outcome = str("outcome");
        const verdict = str("verdict") ?? "?";
        if (verdict === "allow" && outcome === "forward") return;
        const marker: Marker =
          outcome === "refuse"
            ? "REFUSED"
            : outcome === "ask"
              ? "ASK"
              : outcome === "forward-noted"
                ? "NOTED"
                : "OBSERVED";
        if (outcome === "refuse" && id !== undefined) {
          this.refusing(id);
          this.refused.add(idKey("c2s", id));
          this.session.summary.noteRefused(idKey("c2s", id));
        }
        const rule = str("rule");
        const extra = [
          d["tainted"] === true ? "tainted" : "",
          str("unjudgeable") ? `unjudgeable: ${str("unjudgeable")}` : "",
        ].filter(Boolean);
        items.push({
          line,
          offsetMs: at,
          kind: "event",
          marker,
          method: str("method") ?? "decision",
          ...(id !== undefined ? { id } : {}),
          ...(str("tool") !== undefined ? { tool: str("tool") as string } : {}),
          detail: `${verdict}${rule ? ` by ${rule}` : ""}${extra.length ? ` (${extra.join(", ")})` : ""}: ${str("reason") ?? ""}`,
        });
        return;
      }
      case "refusal":
      case "refused":
        for (const call of refusedCalls(d)) {
          if (call.id !== undefined) {
            this.refusing(call.id);
            // A decision event may have said it already (the policy gate logs one); one line is enough.
            if (this.refused.has(idKey("c2s", call.id))) continue;
            this.refused.add(idKey("c2s", call.id));
            this.session.summary.noteRefused(idKey("c2s", call.id));
          }
          items.push({
            line,
            offsetMs: at,
            kind: "event",
            marker: "REFUSED",
            ...(call.method !== undefined ? { method: call.method } : {}),
            ...(call.id !== undefined ? { id: call.id } : {}),
            detail: call.text,
          });
        }
        return;
      case "ask":
        items.push({
          line,
          offsetMs: at,
          kind: "event",
          marker: "ASK",
          ...(id !== undefined ? { id } : {}),
          detail: describeFacts(d),
        });
        return;
      case "taint":
        items.push({
          line,
          offsetMs: at,
          kind: "event",
          marker: "TAINT",
          detail: `by ${str("by") ?? "?"} (${str("reason") ?? "?"}): ${str("why") ?? ""}`,
        });
        return;
      case "pin":
        items.push({
          line,
          offsetMs: at,
          kind: "event",
          marker: "PIN",
          ...(str("tool") ? { tool: str("tool") as string } : {}),
          detail: `${str("kind") ?? "?"} ${str("severity") ?? ""}`.trim(),
        });
        return;
      case "log-gap":
        items.push({
          line,
          offsetMs: at,
          kind: "event",
          marker: "GAP",
          detail: `${String(d["lost"] ?? "?")} records lost: ${str("error") ?? ""}`,
        });
        return;
      default:
        items.push({ line, offsetMs: at, kind: "event", method: r.ev, detail: describeFacts(d) });
    }
  }

  invalid(line: number, error: string): void {
    this.session.summary.invalidLines += 1;
    this.session.items.push({ line, offsetMs: null, kind: "invalid", marker: "INVALID", detail: error });
  }

  finish(): ReplaySession {
    this.session.summary.finish();
    return this.session;
  }
}

/**
 * Mark a server answer to a call effectgate refused, which never reached the server: a forged
 * or guessed answer, shown with what it said (a plain result says nothing otherwise).
 */
function unasked(item: ReplayItem, body: Record<string, unknown>, req: Pending | undefined): void {
  item.marker = "UNASKED";
  if (req) {
    item.answers = req.method;
    if (req.tool !== undefined) item.tool = req.tool;
  }
  delete item.latencyMs;
  const result = body["result"];
  if (item.detail === undefined && isRecord(result)) {
    const text = firstText(result);
    if (text !== undefined) item.detail = text;
  }
}

type RefusedCall = { method: string | undefined; id: JsonRpcId | undefined; text: string };

/**
 * The calls one refusal answered. The relay writes `refused {batch, calls: [{method, id,
 * problem, text}]}` (docs/log-format.md); an id of null means the call had no usable id. Older
 * logs wrote `refusal` with `id`, or `ids` for a batch, and `reason` or `text`.
 */
function refusedCalls(d: Record<string, unknown>): RefusedCall[] {
  const idOf = (v: unknown): JsonRpcId | undefined =>
    typeof v === "string" || typeof v === "number" ? v : undefined;
  const textOf = (r: Record<string, unknown>): string =>
    typeof r["reason"] === "string" ? r["reason"] : typeof r["text"] === "string" ? r["text"] : "";
  if (Array.isArray(d["calls"]))
    return d["calls"].filter(isRecord).map((c) => ({
      method: typeof c["method"] === "string" ? c["method"] : undefined,
      id: idOf(c["id"]),
      text: textOf(c),
    }));
  return [d["id"], ...(Array.isArray(d["ids"]) ? d["ids"] : [])]
    .map(idOf)
    .filter((id) => id !== undefined)
    .map((id) => ({ method: undefined, id, text: textOf(d) }));
}

function describeFacts(d: Record<string, unknown>): string {
  return Object.keys(d)
    .sort()
    .map((k) => `${k}=${typeof d[k] === "string" ? (d[k] as string) : JSON.stringify(d[k])}`)
    .join(" ");
}

/**
 * Split entries into sessions (a new `sid` starts one) and build each transcript. The parts of a
 * rotated session, given in order, are one session: their header copies are skipped.
 */
export function buildTranscript(entries: readonly LogEntry[]): ReplaySession[] {
  const out: ReplaySession[] = [];
  let current: SessionBuilder | undefined;
  for (const e of entries) {
    if ("error" in e) {
      current ??= new SessionBuilder("(unknown)", undefined);
      current.invalid(e.line, e.error);
      markPart(current, 1, e.part);
      continue;
    }
    if (!current || (current.session.sid !== e.record.sid && current.session.sid !== "(unknown)")) {
      if (current) out.push(current.finish());
      current = new SessionBuilder(e.record.sid, e.record);
    } else if (current.session.sid === "(unknown)") {
      // Bad lines before the first record belong to the session that follows.
      const fresh = new SessionBuilder(e.record.sid, e.record);
      for (const item of current.session.items) {
        fresh.invalid(item.line, item.detail ?? "");
        markPart(fresh, 1, item.part);
      }
      current = fresh;
    }
    const before = current.session.items.length;
    current.add(e.line, e.record);
    markPart(current, current.session.items.length - before, e.part);
  }
  if (current) out.push(current.finish());
  return out;
}

/** Label the last `n` items with the part their line is in (nothing for a first part). */
function markPart(b: SessionBuilder, n: number, part: number | undefined): void {
  if (part === undefined) return;
  const items = b.session.items;
  for (let i = items.length - n; i < items.length; i++) (items[i] as ReplayItem).part = part;
}
