// Benign false positives: every judged call in recorded sessions is judged again under the given
// policy (never the verdicts the log recorded), with taint evolving as the session's responses
// arrive. Refusals here are interruptions of ordinary work.
import { JUDGED_METHODS } from "../gate.js";
import { outcomeFor } from "../levels.js";
import type { JudgeEnvironment } from "../policy/api.js";
import { timeOf, type LogEntry, type RecordLike } from "../replay/entries.js";
import { classify, idKey, toolOf, type Message } from "../replay/messages.js";
import { parseStrictJson } from "../strict-json.js";
import type { Platform, Verdict } from "../types.js";
import type { JudgeFactory } from "./attack.js";
import { activeIntervals, blocksPerWeek, unionLength, type Rate } from "./active-time.js";

export interface BenignSession {
  file: string;
  entries: readonly LogEntry[];
}

export interface Flagged {
  file: string;
  line: number;
  sid: string;
  t: string;
  method: string;
  tool: string | undefined;
  verdict: Verdict;
  rule: string | undefined;
  reason: string;
  tainted: boolean;
}

export interface BenignReport {
  sessions: number;
  excluded: { sid: string; reason: string }[];
  calls: number;
  activeMs: number;
  unreadableLines: number;
  verdicts: Record<Verdict, number>;
  /** rule → how many calls it made confirm or deny. */
  rules: Record<string, { confirm: number; deny: number }>;
  flagged: Flagged[];
  enforce: Rate;
  strict: Rate;
}

/** How to place a session's paths: the command supplies home (and the judge) per platform. */
export type EnvironmentFor = (header: {
  platform: Platform;
  cwd: string;
  name: string | null;
}) => JudgeEnvironment;

function platformOf(p: string): Platform {
  return p === "darwin" || p === "win32" ? p : "linux";
}

/** Split a file's entries by session id, keeping file order. */
export function sessionsOf(
  entries: readonly LogEntry[],
): { sid: string; records: { line: number; record: RecordLike }[]; bad: number }[] {
  const out: { sid: string; records: { line: number; record: RecordLike }[]; bad: number }[] = [];
  for (const e of entries) {
    if ("error" in e) {
      const last = out[out.length - 1];
      if (last) last.bad += 1;
      else out.push({ sid: "(unknown)", records: [], bad: 1 });
      continue;
    }
    let s = out.find((x) => x.sid === e.record.sid);
    if (!s) {
      s = { sid: e.record.sid, records: [], bad: 0 };
      out.push(s);
    }
    s.records.push(e);
  }
  return out;
}

interface JoinedSession {
  sid: string;
  records: { file: string; line: number; record: RecordLike }[];
  bad: number;
}

/** Sessions across files: a rotated session continues in a later file under the same sid. */
function joinSessions(files: readonly BenignSession[]): JoinedSession[] {
  const joined = new Map<string, JoinedSession>();
  for (const f of files) {
    for (const part of sessionsOf(f.entries)) {
      const key = part.sid === "(unknown)" ? `(unknown) ${f.file}` : part.sid;
      const s = joined.get(key) ?? { sid: part.sid, records: [], bad: 0 };
      s.records.push(...part.records.map((r) => ({ file: f.file, ...r })));
      s.bad += part.bad;
      joined.set(key, s);
    }
  }
  return [...joined.values()];
}

export function evaluateBenign(
  files: readonly BenignSession[],
  makeJudge: JudgeFactory,
  environmentFor: EnvironmentFor,
  exclude: ReadonlyMap<string, string> = new Map(),
): BenignReport {
  const report: Omit<BenignReport, "enforce" | "strict"> = {
    sessions: 0,
    excluded: [],
    calls: 0,
    activeMs: 0,
    unreadableLines: 0,
    verdicts: { allow: 0, confirm: 0, deny: 0 },
    rules: {},
    flagged: [],
  };
  const intervals: [number, number][] = [];
  let enforceBlocks = 0;
  let strictBlocks = 0;
  for (const s of joinSessions(files)) {
    report.unreadableLines += s.bad;
    const why = exclude.get(s.sid);
    if (why !== undefined) {
      report.excluded.push({ sid: s.sid, reason: why });
      continue;
    }
    if (s.records.length === 0) continue;
    report.sessions += 1;
    intervals.push(...activeIntervals(s.records.map((r) => timeOf(r.record.t))));
    const header = s.records.find((r) => r.record.type === "header")?.record;
    const env = environmentFor(
      header?.type === "header"
        ? { platform: platformOf(header.platform), cwd: header.cwd, name: header.name }
        : { platform: "linux", cwd: "/", name: null },
    );
    const judge = makeJudge(env);
    const pending = new Map<string, { method: string; params: unknown }>();
    const refusedInLog = new Set<string>();
    for (const { file, line, record: r } of s.records) {
      if (r.type === "event" && r.ev === "decision" && r.data["outcome"] === "refuse") {
        const id = r.data["id"];
        if (typeof id === "string" || typeof id === "number") refusedInLog.add(idKey("c2s", id));
      }
      if (r.type !== "frame" || r.text === undefined) continue;
      const strict = parseStrictJson(r.text);
      let value: unknown;
      try {
        value = JSON.parse(r.text);
      } catch {
        continue;
      }
      const problem = strict.ok ? undefined : strict.error;
      const members: Message[] = Array.isArray(value) ? value.map(classify) : [classify(value)];
      for (const msg of members) {
        if (r.dir === "s2c") {
          if (msg.kind !== "response") continue;
          const key = idKey("c2s", msg.id);
          const req = pending.get(key);
          pending.delete(key);
          // A call the relay refused was answered by effectgate, not the tool: nothing to learn.
          if (req && !refusedInLog.has(key)) judge.observe(req, msg.body);
          continue;
        }
        if (msg.kind !== "request" || !JUDGED_METHODS.has(msg.method)) continue;
        const d = judge.judge(msg.method, msg.params, problem);
        pending.set(idKey("c2s", msg.id), { method: msg.method, params: msg.params });
        report.calls += 1;
        report.verdicts[d.verdict] += 1;
        if (outcomeFor("enforce", d.verdict) === "refuse") enforceBlocks += 1;
        if (outcomeFor("strict", d.verdict) !== "forward") strictBlocks += 1;
        if (d.verdict === "allow") continue;
        const rule = d.rule ?? "(no rule)";
        const row = (report.rules[rule] ??= { confirm: 0, deny: 0 });
        row[d.verdict] += 1;
        report.flagged.push({
          file,
          line,
          sid: s.sid,
          t: r.t,
          method: msg.method,
          tool: toolOf(msg.method, msg.params),
          verdict: d.verdict,
          rule: d.rule,
          reason: d.reason,
          tainted: d.tainted,
        });
      }
    }
  }
  report.activeMs = unionLength(intervals);
  return {
    ...report,
    enforce: blocksPerWeek(enforceBlocks, report.calls, report.activeMs),
    strict: blocksPerWeek(strictBlocks, report.calls, report.activeMs),
  };
}
