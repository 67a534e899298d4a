// Rendering a transcript for a terminal. Every string that a server, a model or a log line
// supplied goes through escapeForTerminal; only effectgate's own words are printed as they are.
import { clip, escapeForTerminal as esc, terminalSafeJson } from "./escape.js";
import type { SummaryJson } from "./summary.js";
import { MARKS, type Marker, type ReplayItem, type ReplaySession } from "./replay-item.js";

/** How lines are drawn: with colour only on a terminal that wants it (the command decides). */
export interface Style {
  colour: boolean;
}
const PLAIN: Style = { colour: false };

/** SGR colours by what a line is about. Applied around a line already escaped, so text from a
 *  server can never open or close a colour of its own. */
const COLOURS: Partial<Record<Marker | "UNREADABLE" | "refused" | "heading", string>> = {
  REFUSED: "31",
  UNASKED: "1;31",
  refused: "31",
  ASK: "1;33",
  NOTED: "33",
  OBSERVED: "33",
  TAINT: "35",
  PIN: "36",
  STDERR: "2",
  GAP: "1",
  INVALID: "1",
  UNMATCHED: "1",
  EARLY: "1",
  UNREADABLE: "1",
  heading: "1",
};

function paint(line: string, key: keyof typeof COLOURS | undefined, style: Style): string {
  const sgr = key === undefined ? undefined : COLOURS[key];
  return style.colour && sgr !== undefined ? `\x1b[${sgr}m${line}\x1b[0m` : line;
}

/** `!! REFUSED`, `2> STDERR`: the mark of the line's kind, then its name. */
const marked = (m: Marker): string => `${MARKS[m]} ${m}`;

/** What the call touches, as the relay judged it: `read /home/u/p/a.md (+2 more)`. */
function effectsShown(item: ReplayItem): string {
  if (item.effects === undefined || item.effects.length === 0) return "";
  const more = item.moreEffects !== undefined ? ` (+${item.moreEffects} more)` : "";
  return `${item.effects.map((e) => esc(clip(e, DETAIL_MAX))).join(", ")}${more}`;
}

const DETAIL_MAX = 200;

/** `+H:MM:SS.mmm` since session start; `+?` when the time could not be read. */
export function formatOffset(ms: number | null): string {
  if (ms === null) return "+?:??:??.???";
  const sign = ms < 0 ? "-" : "+";
  let rest = Math.abs(Math.round(ms));
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const sec = rest % 60;
  rest = (rest - sec) / 60;
  const min = rest % 60;
  const hours = (rest - min) / 60;
  return `${sign}${hours}:${String(min).padStart(2, "0")}:${String(sec).padStart(2, "0")}.${String(milli).padStart(3, "0")}`;
}

export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(2)}s`;
}

function showId(id: ReplayItem["id"]): string {
  // JSON quotes a string id and writes a number as it is, so 1 and "1" print differently. An id is
  // the client's or the server's text like any other: JSON leaves C1 controls, bidi characters
  // and line separators raw, so every hidden character is written as a JSON escape too.
  return id === undefined ? "" : `id=${terminalSafeJson(id)}`;
}

function body(item: ReplayItem): string {
  // Only frames and the messages in them print the arrow, and those always have a direction.
  const arrow = item.dir === "c2s" ? "->" : "<-";
  const star = item.batch ? "*" : " ";
  const tool = item.tool !== undefined ? `tool=${esc(item.tool)}` : "";
  const detail = item.detail !== undefined ? esc(clip(item.detail, DETAIL_MAX)) : "";
  const join = (...parts: string[]): string => parts.filter((p) => p !== "").join("  ");
  switch (item.kind) {
    case "request":
    case "notification":
      return join(
        `${arrow}${star}`,
        esc(item.method ?? ""),
        showId(item.id),
        tool,
        effectsShown(item),
        detail,
      );
    case "response": {
      const what =
        item.outcome === "refusal"
          ? "refused by effectgate"
          : item.outcome === "tool-error"
            ? "tool error"
            : (item.outcome ?? "result");
      const answers = item.answers !== undefined ? `<- ${esc(item.answers)}` : "<- (no matching request)";
      const latency = item.latencyMs !== undefined ? formatLatency(item.latencyMs) : "";
      return join(
        // The server answered a call effectgate refused: it never received it (decision 0064).
        item.marker ? marked(item.marker) : "",
        `${arrow}${star}`,
        what,
        answers,
        showId(item.id),
        tool,
        latency,
        detail === "" ? "" : `"${detail}"`,
        item.marker === "UNASKED"
          ? "(from the server, which never received this call: effectgate refused it)"
          : item.marker === "EARLY"
            ? "(logged before its call: the server answered while the call was still crossing)"
            : "",
        item.bridge ? "(written by effectgate's --url bridge in the server's place)" : "",
      );
    }
    case "frame":
      return join(`${arrow}${star}`, detail);
    case "stderr":
      return `${marked("STDERR")}  ${detail}`;
    case "invalid":
      return `${marked("INVALID")}  line ${item.line}${item.part !== undefined ? ` of part ${item.part}` : ""}: ${detail}`;
    case "exit":
      return `== ${detail}`;
    case "event":
      if (item.marker)
        return join(marked(item.marker), item.method ? esc(item.method) : "", showId(item.id), tool, detail);
      return join(`.. ${esc(item.method ?? "event")}`, detail);
  }
}

export function formatItem(item: ReplayItem, style: Style = PLAIN): string {
  const key = item.marker ?? (item.refused ? "refused" : undefined);
  return paint(`  ${formatOffset(item.offsetMs)}  ${body(item)}`, key, style);
}

export function formatSession(
  s: ReplaySession,
  style: Style = PLAIN,
  items: readonly ReplayItem[] = s.items,
): string[] {
  const out: string[] = [];
  out.push(
    paint(`session ${esc(s.sid)}  started ${s.start !== null ? esc(s.start) : "?"}`, "heading", style),
  );
  if (s.header) {
    const h = s.header;
    out.push(
      `  server: ${h.server.map((a) => esc(a)).join(" ")}${h.name !== null ? `  (name ${esc(h.name)})` : ""}`,
    );
    out.push(
      `  cwd ${esc(h.cwd)}  platform ${esc(h.platform)}  level ${esc(h.level)} (${esc(h.from)})  policy ${h.policy !== null ? esc(h.policy) : "none"}`,
    );
  } else {
    out.push("  (no header record: the start of this session is missing)");
  }
  for (const item of items) out.push(formatItem(item, style));
  const m = s.summary.toJSON();
  out.push("  summary:");
  out.push(
    `    protocol ${m.protocolVersion !== null ? esc(m.protocolVersion) : "unknown"}; client ${m.client !== null ? esc(m.client) : "unknown"}; server ${m.server !== null ? esc(m.server) : "unknown"}`,
  );
  out.push(
    `    ${m.toolsAdvertised} tools advertised, ${m.calls} calls, ${m.refused} refused, ${m.failed} failed, ${m.unanswered} unanswered${answerCounts(m)}${m.invalidLines ? `, ${m.invalidLines} unreadable lines` : ""}`,
  );
  for (const [tool, n] of Object.entries(m.callsPerTool))
    out.push(`    ${String(n).padStart(5)}  ${esc(tool)}`);
  return out;
}

/** Answers that were not simply a waiting request's, said only when there are any. */
function answerCounts(m: SummaryJson): string {
  const parts = [
    m.answersWithoutRequest > 0
      ? `, ${m.answersWithoutRequest} ${m.answersWithoutRequest === 1 ? "answer" : "answers"} with no matching request`
      : "",
    m.earlyAnswers > 0 ? `, ${m.earlyAnswers} answered before their call was logged` : "",
  ];
  return parts.join("");
}

/** A file of a session that could not be read (a dangling link, no permission): shown, skipped. */
export interface Unreadable {
  file: string;
  why: string;
}

/** The whole transcript of one file as lines of text; files that could not be read come first. */
export function formatFile(
  file: string,
  sessions: readonly ReplaySession[],
  unreadable: readonly Unreadable[] = [],
  style: Style = PLAIN,
  itemsOf: (s: ReplaySession) => readonly ReplayItem[] = (s) => s.items,
): string[] {
  const out = [paint(`== ${esc(file)}`, "heading", style)];
  for (const u of unreadable)
    out.push(
      paint(
        `  ${MARKS.UNREADABLE} UNREADABLE  ${esc(u.file)}: expected a readable session log, got ${esc(u.why)}; skipped`,
        "UNREADABLE",
        style,
      ),
    );
  if (sessions.length === 0 && unreadable.length === 0) out.push("  (empty log)");
  for (const s of sessions) out.push(...formatSession(s, style, itemsOf(s)));
  return out;
}

/**
 * Structured form for --json: one record per item, then one per session summary. `parts` names
 * every file of a rotated session read as one (`file` is the first); `unreadable` the files of
 * it that could not be read.
 */
export function jsonRecords(
  file: string,
  sessions: readonly ReplaySession[],
  parts?: readonly string[],
  unreadable: readonly Unreadable[] = [],
  itemsOf: (s: ReplaySession) => readonly ReplayItem[] = (s) => s.items,
): unknown[] {
  const out: unknown[] = [
    {
      type: "file",
      file,
      ...(parts ? { parts } : {}),
      sessions: sessions.length,
      ...(unreadable.length > 0 ? { unreadable } : {}),
    },
  ];
  for (const s of sessions) {
    out.push({ type: "session", file, sid: s.sid, start: s.start, header: s.header });
    for (const item of itemsOf(s)) out.push({ type: "item", file, sid: s.sid, ...item });
    out.push({ type: "summary", file, sid: s.sid, ...s.summary.toJSON() });
  }
  return out;
}
