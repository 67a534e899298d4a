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
  callsPerTool: Record<string, number>;
  invalidLines: number;
}

export class SessionSummary {
  protocolVersion: string | null = null;
  client: string | null = null;
  server: string | null = null;
  readonly tools = new Set<string>();
  invalidLines = 0;
  private readonly calls = new Map<string, string>();
  private readonly answered = new Map<string, string>();
  private readonly refusedIds = new Set<string>();
  private finished: SummaryJson | undefined;

  noteCall(key: string, tool: string): void {
    this.calls.set(key, tool);
  }
  noteAnswer(key: string, outcome: string): void {
    this.answered.set(key, outcome);
  }
  noteRefused(key: string): void {
    this.refusedIds.add(key);
  }

  finish(): void {
    let failed = 0;
    let unanswered = 0;
    let refused = 0;
    const perTool = new Map<string, number>();
    for (const [key, tool] of this.calls) {
      perTool.set(tool, (perTool.get(tool) ?? 0) + 1);
      const outcome = this.answered.get(key);
      if (this.refusedIds.has(key)) refused += 1;
      else if (outcome === undefined) unanswered += 1;
      else if (outcome === "error" || outcome === "tool-error") failed += 1;
    }
    const names = [...perTool.keys()].sort(byCodeUnits);
    this.finished = {
      protocolVersion: this.protocolVersion,
      client: this.client,
      server: this.server,
      toolsAdvertised: this.tools.size,
      tools: [...this.tools].sort(byCodeUnits),
      calls: this.calls.size,
      refused,
      failed,
      unanswered,
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
