// Benign false positives: every judged call in recorded sessions is judged again under the given
// policy (never the verdicts the log recorded), with taint evolving as the session's responses
// arrive. Refusals here are interruptions of ordinary work. The session is rebuilt once per
// level (session-rebuild.ts): an answer to a call a level refuses never reaches that level's judge.
import type { JudgeEnvironment } from "../policy/api.js";
import { timeOf, type LogEntry, type RecordLike } from "../replay/entries.js";
import type { Outcome } from "../gate/levels.js";
import type { Platform, Verdict } from "../types.js";
import type { JudgeFactory } from "./attack.js";
import { activeIntervals, blocksPerWeek, unionLength, type Rate } from "./active-time.js";
import type { Counts, KindCounts } from "./counts.js";
import { SessionRebuild } from "./session-rebuild.js";
import { COMMAND_KINDS } from "./command-kind.js";
import { offersDialog } from "../gate/ask-channel.js";

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
  /** The verdict in the session rebuilt at enforce. */
  verdict: Verdict;
  rule: string | undefined;
  reason: string;
  tainted: boolean;
  /** The verdict in the session rebuilt at strict, when it differs (its taint may differ). */
  strict?: Verdict;
  /** What each level would have done: at strict a confirm nobody could be asked is `refuse`. */
  outcomes: { enforce: Outcome; strict: Outcome };
  /** The deciding effect, as replay shows it (`write /home/u/.bashrc`). */
  effect?: string;
  /** The call's params, for the `effectgate check` line that explains it (when asked for). */
  params?: unknown;
}

export interface BenignReport {
  sessions: number;
  excluded: { sid: string; reason: string }[];
  calls: number;
  activeMs: number;
  unreadableLines: number;
  /** Verdicts in the session rebuilt at enforce. */
  verdicts: Record<Verdict, number>;
  /** Verdicts in the session rebuilt at strict (differs only where taint differs). */
  strictVerdicts: Record<Verdict, number>;
  /** Calls that could not be judged again, by why: `tooLarge` (only the head of the frame is logged). */
  unjudged: { tooLarge: number };
  /**
   * Server answers not shown to the judge as a call's answer: `noRequest` (no call with its id
   * was pending), `tooLarge` (only its head is logged). `early` counts answers logged before
   * their call had fully crossed at observe, which were taken as that call's answer.
   */
  answers: { noRequest: number; tooLarge: number; early: number };
  /** rule → how many calls it made confirm or deny (rebuilt at enforce). */
  rules: Record<string, { confirm: number; deny: number }>;
  flagged: Flagged[];
  enforce: Rate;
  strict: Rate;
  /**
   * What strict does with each confirm: asked in the chat (`elicitation`, `input_required`) or
   * in a desktop dialog (`dialog`, where the session's header says its relay offered one), or
   * refused (`out of band`: with an id for `effectgate allow`; `none`: its question is too long
   * to show; `flood`: a dialog question over the flood limit), and how many questions an active
   * hour brings (null: no active time).
   */
  asks: StrictAsks;
  /**
   * Commands at strict in an untainted session, by kind (reads, builds and tests, git, package
   * installs, other), and how many strict stopped; `other` again by program (issue 19).
   */
  commandKinds: KindCounts;
}

export interface StrictAsks {
  asked: { elicitation: number; input_required: number; dialog: number };
  refused: { "out of band": number; none: number; flood: number };
  questionsPerActiveHour: number | null;
}

/** How to place a session's paths: the command supplies home (and the judge) per platform. */
export type EnvironmentFor = (header: {
  platform: Platform;
  cwd: string;
  name: string | null;
  /** The policy the session ran with (`default` or a path as given), null with checks off. */
  policy: string | null;
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
  o: {
    /** Count only calls (and active time) from this moment (ms) on; earlier ones still taint. */
    countFrom?: number;
    /** Keep each flagged call's params (status shows the `effectgate check` line). */
    withParams?: boolean;
    /** Called after each session is rebuilt: how many of them are done. */
    progress?: (done: number, of: number) => void;
  } = {},
): BenignReport {
  const counts: Counts = {
    calls: 0,
    verdicts: { allow: 0, confirm: 0, deny: 0 },
    strictVerdicts: { allow: 0, confirm: 0, deny: 0 },
    rules: {},
    flagged: [],
    blocks: { enforce: 0, strict: 0 },
    asks: { elicitation: 0, input_required: 0, dialog: 0, "out of band": 0, none: 0, flood: 0 },
    unjudged: { tooLarge: 0 },
    answers: { noRequest: 0, tooLarge: 0, early: 0 },
    kinds: {
      kinds: Object.fromEntries(
        COMMAND_KINDS.map((k) => [k, { calls: 0, blocked: 0 }]),
      ) as KindCounts["kinds"],
      other: {},
    },
  };
  let sessions = 0;
  let unreadableLines = 0;
  const excluded: { sid: string; reason: string }[] = [];
  const intervals: [number, number][] = [];
  const joined = joinSessions(files);
  let done = 0;
  for (const s of joined) {
    o.progress?.(done++, joined.length);
    unreadableLines += s.bad;
    const why = exclude.get(s.sid);
    if (why !== undefined) {
      excluded.push({ sid: s.sid, reason: why });
      continue;
    }
    if (s.records.length === 0) continue;
    sessions += 1;
    const times = s.records.map((r) => timeOf(r.record.t));
    intervals.push(...clipped(activeIntervals(times), o.countFrom));
    const header = s.records.find((r) => r.record.type === "header")?.record;
    const h = header?.type === "header" ? header : undefined;
    const env = environmentFor(
      h
        ? { platform: platformOf(h.platform), cwd: h.cwd, name: h.name, policy: h.policy?.source ?? null }
        : { platform: "linux", cwd: "/", name: null, policy: null },
    );
    const rebuild = new SessionRebuild(s.sid, () => makeJudge(env), counts, {
      // At observe (and with checks off) bytes go on before they are logged (decision 0048).
      passThrough: h !== undefined && (h.level === "observe" || h.from === "off"),
      ...(o.countFrom !== undefined ? { countFrom: o.countFrom } : {}),
      withParams: o.withParams === true,
      dialog: offersDialog(h),
    });
    for (const { file, line, record } of s.records) rebuild.add(file, line, record);
    rebuild.finish();
  }
  o.progress?.(joined.length, joined.length);
  const activeMs = unionLength(intervals);
  return {
    sessions,
    excluded,
    calls: counts.calls,
    activeMs,
    unreadableLines,
    verdicts: counts.verdicts,
    strictVerdicts: counts.strictVerdicts,
    rules: counts.rules,
    flagged: counts.flagged,
    unjudged: counts.unjudged,
    answers: counts.answers,
    enforce: blocksPerWeek(counts.blocks.enforce, counts.calls, activeMs),
    strict: blocksPerWeek(counts.blocks.strict, counts.calls, activeMs),
    asks: strictAsks(counts.asks, activeMs),
    commandKinds: counts.kinds,
  };
}

/** Confirms at strict: asked or refused, by channel, and questions per active hour. */
function strictAsks(byChannel: Counts["asks"], activeMs: number): StrictAsks {
  const asked = {
    elicitation: byChannel.elicitation,
    input_required: byChannel.input_required,
    dialog: byChannel.dialog,
  };
  const refused = { "out of band": byChannel["out of band"], none: byChannel.none, flood: byChannel.flood };
  const questions = asked.elicitation + asked.input_required + asked.dialog;
  return {
    asked,
    refused,
    questionsPerActiveHour:
      activeMs > 0 ? Math.round((questions / (activeMs / 3_600_000)) * 100) / 100 : null,
  };
}

/** Active stretches from `from` on (all of them when it is undefined). */
function clipped(intervals: [number, number][], from: number | undefined): [number, number][] {
  if (from === undefined) return intervals;
  return intervals
    .filter(([, end]) => end > from)
    .map(([start, end]): [number, number] => [Math.max(start, from), end]);
}
