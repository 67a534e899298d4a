// One session's transcript, record by record: an item per frame member, event, stderr line or
// bad line, with the requests matched to their answers and the session's summary kept as it goes.
// transcript.ts splits a log's entries into sessions and gives each to a SessionBuilder.
import type { JsonRpcId } from "../types.js";
import { timeOf, type EventLike, type FrameLike, type RecordLike } from "./entries.js";
import { headFacts, loggedText } from "./logged-frames.js";
import { failureOf, firstText, idKey, isRecord, parseFrame, toolOf, type Message } from "./messages.js";
import { eventItems } from "./event-items.js";
import { RefusedCalls, type Pending } from "./refused-calls.js";
import { RequestMatcher } from "./request-matcher.js";
import type { ReplayItem, ReplaySession } from "./replay-item.js";
import { newSummary, noteHandshake } from "./summary.js";

export class SessionBuilder {
  readonly session: ReplaySession;
  private readonly start: number;
  /** Requests waiting for answers, and answers parked before their call (request-matcher.ts). */
  private readonly matcher = new RequestMatcher<Pending, ReplayItem>();
  /** Ids of the requests in the client frame being read. */
  private frameRequests: string[] = [];
  /** Bytes go on before they are logged (observe, checks off): answers can precede their call. */
  private passThrough = false;
  /** seq of each header read: the copy at the top of a later part repeats the first. */
  private readonly headers = new Set<number>();
  /** The latest request line under each id: a decision about it adds the call's effects. */
  private readonly requestItems = new Map<string, ReplayItem>();
  /** The latest REFUSED line under each id: the `refused` event after it brings its remedy. */
  private readonly refusalItems = new Map<string, ReplayItem>();

  /** The calls effectgate refused, and the server answers that only seemed to answer them. */
  private readonly refused: RefusedCalls;

  constructor(sid: string, first: RecordLike | undefined) {
    this.start = first ? timeOf(first.t) : NaN;
    this.session = { sid, start: first?.t ?? null, header: null, items: [], summary: newSummary() };
    this.refused = new RefusedCalls(this.matcher, this.session.summary);
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
        this.passThrough = r.level === "observe" || r.from === "off";
        this.matcher.marksOwn = r.marksOwn === true;
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
    this.frameRequests = [];
    this.frameMessages(line, at, r);
    if (r.dir === "c2s") this.settleEarly();
    if (r.dir === "s2c") this.matcher.serverFrameRead();
  }

  private frameMessages(line: number, at: number | null, r: FrameLike): void {
    const items = this.session.items;
    const logged = loggedText(r);
    if (logged === undefined) {
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: `(not UTF-8, ${r.size} bytes)` });
      return;
    }
    if (!logged.utf8) {
      // The relay read these bytes with U+FFFD for each bad sequence, and judged that: so do we.
      const note = `(not UTF-8, ${r.size} bytes: read with U+FFFD for each bad byte, as the relay read it)`;
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: note });
    }
    if (!logged.whole) return this.cutFrame(line, at, r, logged.text);
    const parsed = r.nonJson ? undefined : parseFrame(logged.text);
    if (!parsed) {
      if (r.dir === "c2s") this.refused.newClientFrame();
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: `(not JSON) ${logged.text}` });
      return;
    }
    if (r.dir === "c2s" && parsed.messages.some((m) => m.kind !== "response")) this.refused.newClientFrame();
    for (const m of parsed.messages) this.message(line, at ?? NaN, r, m, parsed.batch);
  }

  /**
   * A frame over 16 MiB, of which the log keeps the first 64 KiB. When that head names a method
   * and an id, a request is shown (and a tools/call counted) from it; an answer is matched with
   * its call. Anything else is shown as the head it is.
   */
  private cutFrame(line: number, at: number | null, r: FrameLike, head: string): void {
    const what = `(truncated frame, ${r.size} bytes)`;
    const facts = headFacts(head);
    const items = this.session.items;
    if (r.dir === "c2s") this.refused.newClientFrame();
    if (facts.id === undefined) {
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: `${what} ${head}` });
      return;
    }
    const base = {
      line,
      offsetMs: at,
      dir: r.dir,
      id: facts.id,
      detail: `${what}: read from its first 64 KiB`,
    };
    if (facts.method !== undefined) {
      const item: ReplayItem = {
        ...base,
        kind: "request",
        method: facts.method,
        ...(facts.tool ? { tool: facts.tool } : {}),
      };
      this.request(r.dir, facts.id, facts.method, facts.tool, undefined, at ?? NaN, item);
      items.push(item);
      return;
    }
    const key = idKey(r.dir === "c2s" ? "s2c" : "c2s", facts.id);
    const req = this.matcher.answer(key);
    if (!req) {
      items.push({ line, offsetMs: at, kind: "frame", dir: r.dir, detail: `${what} ${head}` });
      return;
    }
    const own = r.dir === "s2c" && this.matcher.ownAnswer(key, r.by);
    if (req.call) this.session.summary.noteAnswer(req.call, own ? "refusal" : "result");
    items.push({
      ...base,
      ...(own ? { refused: true as const } : {}),
      kind: "response",
      outcome: own ? "refusal" : "result",
      answers: req.method,
      ...(req.tool !== undefined ? { tool: req.tool } : {}),
    });
  }

  /** Note a request: pending until answered; a client's tools/call is a call of the session. */
  private request(
    dir: "c2s" | "s2c",
    id: JsonRpcId,
    method: string,
    tool: string | undefined,
    params: unknown,
    at: number,
    item: ReplayItem,
  ): void {
    const key = idKey(dir, id);
    const call =
      method === "tools/call" && dir === "c2s"
        ? this.session.summary.noteCall(key, tool ?? "(no name)")
        : undefined;
    if (call) {
      this.refused.called(call, item);
    }
    if (dir === "c2s") this.requestItems.set(key, item);
    this.frameRequests.push(key);
    this.matcher.request(key, { method, tool, at, params, ...(call ? { call } : {}) });
    // A new call under a refused call's id may well be sent and answered.
    this.refused.reused(key);
  }

  /**
   * A client frame was read: answers logged before it that matched no request are this frame's
   * calls' answers when they carry their ids (observe only); any other has no matching request.
   */
  private settleEarly(): void {
    this.refused.clientFrameRead();
    const s = this.session.summary;
    for (const { request: req, answer: item } of this.matcher.claim(this.frameRequests)) {
      item.marker = "EARLY";
      item.answers = req.method;
      if (req.tool !== undefined) item.tool = req.tool;
      if (req.call) s.noteAnswer(req.call, item.outcome ?? "result");
      s.earlyAnswers += 1;
    }
    s.answersWithoutRequest += this.matcher.unclaimed().length;
  }

  private message(line: number, at: number, r: FrameLike, m: Message, batch: boolean): void {
    const dir = r.dir;
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
      const item: ReplayItem = { ...base, kind: "request", method: m.method, id: m.id, tool };
      this.request(dir, m.id, m.method, tool, m.params, at, item);
      if (m.method === "initialize" && dir === "c2s" && isRecord(m.params))
        noteHandshake(s, { clientInfo: m.params["clientInfo"] });
      this.session.items.push(item);
      return;
    }
    const key = idKey(dir === "c2s" ? "s2c" : "c2s", m.id);
    const own = dir === "s2c" && this.matcher.ownAnswer(key, r.by);
    // A log that marks effectgate's frames shows a server answer to a refused call for what it
    // is, wherever it falls: it answers nothing, and effectgate's own answer is still to come.
    const forged = dir === "s2c" && !own && this.matcher.marksOwn && this.refused.neverReached(key);
    const req = forged ? undefined : this.matcher.answer(key);
    const failure = failureOf(m.body);
    const outcome = own ? "refusal" : failure ? ("error" in m.body ? "error" : "tool-error") : "result";
    const item: ReplayItem = {
      ...base,
      ...(own ? { refused: true as const } : {}),
      kind: "response",
      id: m.id,
      outcome,
      ...(dir === "s2c" && r.by === "bridge" ? { bridge: true as const } : {}),
    };
    if (req) {
      item.answers = req.method;
      if (req.tool !== undefined) item.tool = req.tool;
      const latency = at - req.at;
      if (Number.isFinite(latency)) item.latencyMs = latency;
      if (req.call) s.noteAnswer(req.call, outcome);
      const result = m.body["result"];
      if (req.method === "initialize" && isRecord(result))
        noteHandshake(s, { protocolVersion: result["protocolVersion"], serverInfo: result["serverInfo"] });
      if (req.method === "tools/list" && isRecord(result) && Array.isArray(result["tools"])) {
        for (const t of result["tools"])
          if (isRecord(t) && typeof t["name"] === "string") s.tools.add(t["name"]);
      }
      if (dir === "s2c" && !own) this.refused.answered(key, item, req, m.body);
    }
    if (failure)
      item.detail = failure.code === undefined ? failure.message : `${failure.code} ${failure.message}`;
    if (dir === "s2c" && !own && !req && this.refused.neverReached(key))
      this.refused.markUnasked(item, m.body, key);
    else if (dir === "s2c" && !req && !own) this.unmatched(item, m.body, key);
    this.session.items.push(item);
  }

  /** A server answer no request was waiting for: shown with what it said, and counted. */
  private unmatched(item: ReplayItem, body: Record<string, unknown>, key: string): void {
    item.marker = "UNMATCHED";
    const result = body["result"];
    if (item.detail === undefined && isRecord(result)) {
      const text = firstText(result);
      if (text !== undefined) item.detail = text;
    }
    // At observe it may answer a call still crossing: the next client frame may claim it.
    if (this.matcher.noRequest(key, item, this.passThrough) !== undefined)
      this.session.summary.answersWithoutRequest += 1;
  }

  private event(line: number, at: number | null, r: EventLike): void {
    const items = eventItems(line, at, r, {
      handshake: (d) => noteHandshake(this.session.summary, d),
      refusedCall: (id, by, method, tool) => this.refused.refusedCall(id, by, method, tool),
      judged: (id, effects) => {
        const item = id === undefined ? undefined : this.requestItems.get(idKey("c2s", id));
        if (!item || effects.shown.length === 0) return;
        item.effects = effects.shown;
        if (effects.more > 0) item.moreEffects = effects.more;
      },
      remedy: (id, text) => {
        const item = id === undefined ? undefined : this.refusalItems.get(idKey("c2s", id));
        if (item && item.remedy === undefined && text !== "") item.remedy = text;
      },
    });
    for (const item of items)
      if (item.marker === "REFUSED" && item.id !== undefined)
        this.refusalItems.set(idKey("c2s", item.id), item);
    this.session.items.push(...items);
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
