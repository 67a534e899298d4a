// Per-session counts for replay: who spoke, what was offered, what was called and how it ended.
import { isRecord } from "./messages.js";

export interface SummaryJson {
  protocolVersion: string | null;
  client: string | null;
  server: string | null;
  toolsAdvertised: number;
  tools: string[];
  calls: number;
  refused: number;
  failed: number;
  unanswered: number;
  /** Server answers that matched no request (UNASKED answers to refused calls not counted). */
  answersWithoutRequest: number;
  /** At observe: answers logged before their call's frame, taken as that call's answer. */
  earlyAnswers: number;
  callsPerTool: Record<string, number>;
  invalidLines: number;
}

/**
 * One `tools/call` of the session: from its frame, or, when the frame could not be read (cut,
 * not JSON), from the refusal that answered it. Ids may be reused, so each call is its own record.
 */
export interface CallRecord {
  /** idKey of its id; undefined while no usable id is known. */
  key: string | undefined;
  tool: string;
  outcome?: string;
  /** Which refusal records named it: a `decision` that refused, a `refused` event, or both. */
  refused?: { decision?: true; event?: true };
}

export class SessionSummary {
  protocolVersion: string | null = null;
  client: string | null = null;
  server: string | null = null;
  readonly tools = new Set<string>();
  invalidLines = 0;
  answersWithoutRequest = 0;
  earlyAnswers = 0;
  private readonly calls: CallRecord[] = [];
  /** The latest call under each id: the one a refusal or an answer of that id is about. */
  private readonly byKey = new Map<string, CallRecord>();
  private finished: SummaryJson | undefined;

  noteCall(key: string | undefined, tool: string): CallRecord {
    const call: CallRecord = { key, tool };
    this.calls.push(call);
    if (key !== undefined) this.byKey.set(key, call);
    return call;
  }
  /** The latest call under this id, if any. */
  call(key: string): CallRecord | undefined {
    return this.byKey.get(key);
  }
  /** A call first known without an id learns it (its refusal named it). */
  setKey(call: CallRecord, key: string): void {
    call.key = key;
    this.byKey.set(key, call);
  }
  noteAnswer(call: CallRecord, outcome: string): void {
    call.outcome ??= outcome;
  }

  finish(): void {
    let failed = 0;
    let unanswered = 0;
    let refused = 0;
    const perTool = new Map<string, number>();
    for (const call of this.calls) {
      perTool.set(call.tool, (perTool.get(call.tool) ?? 0) + 1);
      if (call.refused) refused += 1;
      else if (call.outcome === undefined) unanswered += 1;
      else if (call.outcome === "error" || call.outcome === "tool-error") failed += 1;
    }
    const names = [...perTool.keys()].sort(byCodeUnits);
    this.finished = {
      protocolVersion: this.protocolVersion,
      client: this.client,
      server: this.server,
      toolsAdvertised: this.tools.size,
      tools: [...this.tools].sort(byCodeUnits),
      calls: this.calls.length,
      refused,
      failed,
      unanswered,
      answersWithoutRequest: this.answersWithoutRequest,
      earlyAnswers: this.earlyAnswers,
      callsPerTool: Object.fromEntries(names.map((n) => [n, perTool.get(n) ?? 0])),
      invalidLines: this.invalidLines,
    };
  }

  toJSON(): SummaryJson {
    if (!this.finished) this.finish();
    return this.finished as SummaryJson;
  }
}

export function newSummary(): SessionSummary {
  return new SessionSummary();
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function peer(info: unknown): string | null {
  if (!isRecord(info) || typeof info["name"] !== "string") return null;
  return typeof info["version"] === "string" ? `${info["name"]} ${info["version"]}` : info["name"];
}

/** Take what a handshake (event or initialize frames) says; the first source to say it wins. */
export function noteHandshake(s: SessionSummary, facts: Record<string, unknown>): void {
  const pv = facts["protocolVersion"];
  if (s.protocolVersion === null && typeof pv === "string") s.protocolVersion = pv;
  s.client ??= peer(facts["clientInfo"]);
  s.server ??= peer(facts["serverInfo"]);
}
