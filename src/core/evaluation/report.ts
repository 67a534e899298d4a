// Text for `effectgate eval`. Reasons, tool names and rules may come from a model or a server, so
// they are escaped before they reach the terminal.
import { clip, escapeForTerminal as esc } from "../replay/escape.js";
import type { Level } from "../types.js";
import type { Rate } from "./active-time.js";
import type { BenignReport } from "./benign.js";
import type { Ratio, RecallReport } from "./recall.js";

function pct(r: Ratio): string {
  return r.recall === null ? "n/a" : `${(r.recall * 100).toFixed(1)}%`;
}

function ratioText(r: Ratio): string {
  return `${r.stopped}/${r.total} (${pct(r)})`;
}

export function formatRecall(r: RecallReport, policy: string): string[] {
  const levels = Object.keys(r.perLevel) as Level[];
  const out = [
    `attack corpus: ${r.scenarios} scenarios, ${r.visible} visible to a stdio relay, ${r.invisible.length} not; policy ${esc(policy)}`,
  ];
  out.push("  recall (harmful message refused):");
  for (const level of levels) out.push(`    ${level.padEnd(8)} ${ratioText(r.perLevel[level])}`);
  out.push("  by category:");
  const width = Math.max(8, ...Object.keys(r.perCategory).map((c) => c.length));
  for (const [c, row] of Object.entries(r.perCategory)) {
    out.push(
      `    ${esc(c).padEnd(width)}  ${levels
        .map((l) => `${l} ${ratioText(row[l])}`.padEnd(24))
        .join(" ")
        .trimEnd()}`,
    );
  }
  if (r.missed.length > 0) {
    out.push("  missed:");
    for (const m of r.missed) {
      const verdict = m.verdict ? `${m.verdict}${m.rule ? ` by ${esc(m.rule)}` : ""}` : "no verdict";
      out.push(
        `    [${m.level}] ${m.id} (${esc(m.category)}): ${m.outcome}${m.askedIn ? ` (${m.askedIn})` : ""}; ${verdict}${m.tainted ? ", tainted" : ""}: ${esc(clip(m.reason, 200))}`,
      );
    }
  }
  if (r.invisible.length > 0) {
    out.push("  not visible to a stdio relay (never counted as stopped):");
    for (const s of r.invisible) out.push(`    ${s.id} (${esc(s.category)}): ${esc(s.why)}`);
  }
  return out;
}

function rateText(level: string, r: Rate): string {
  if (!r.ok) return `    ${level.padEnd(8)} ${r.why}`;
  return `    ${level.padEnd(8)} ${r.perWeek.toFixed(1)} per week (${r.blocks} blocked of ${r.calls} calls)`;
}

export function formatBenign(b: BenignReport, policy: string, title = "benign traffic"): string[] {
  const minutes = Math.floor(b.activeMs / 60000);
  const out = [
    `${title}: ${b.sessions} sessions, ${b.calls} judged calls, ${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m active; policy ${esc(policy)}`,
  ];
  if (b.excluded.length > 0) {
    out.push(`  excluded ${b.excluded.length === 1 ? "1 session" : `${b.excluded.length} sessions`}:`);
    for (const e of b.excluded) out.push(`    ${esc(e.sid)}  # ${esc(e.reason)}`);
  }
  if (b.unreadableLines > 0) out.push(`  ${b.unreadableLines} unreadable log lines skipped`);
  out.push(...notJudged(b));
  if (b.calls === 0) {
    out.push("  no judged calls: this measures nothing about false positives");
    return out;
  }
  out.push(`  verdicts: ${verdictText(b.verdicts)}`);
  // Taint is rebuilt per level: strict refuses more calls, so fewer answers reach its judge.
  if (verdictText(b.strictVerdicts) !== verdictText(b.verdicts))
    out.push(`  verdicts at strict (its own taint): ${verdictText(b.strictVerdicts)}`);
  const rules = Object.entries(b.rules).sort(
    (x, y) => y[1].confirm + y[1].deny - (x[1].confirm + x[1].deny) || (x[0] < y[0] ? -1 : 1),
  );
  if (rules.length > 0) {
    out.push("  by rule:");
    for (const [rule, n] of rules)
      out.push(
        `    ${String(n.deny).padStart(4)} deny ${String(n.confirm).padStart(4)} confirm  ${esc(rule)}`,
      );
  }
  if (b.flagged.length > 0) {
    out.push("  flagged calls:");
    for (const f of b.flagged) {
      out.push(
        `    ${esc(f.file)}:${f.line} ${esc(f.t)} ${f.verdict}${f.strict !== undefined ? ` (strict: ${f.strict})` : ""} ${esc(f.tool ?? f.method)}${f.tainted ? " (tainted)" : ""}: ${esc(clip(f.reason, 160))}`,
      );
    }
  }
  out.push("  blocks per week of active time (enforce refuses deny; strict also stops every confirm):");
  out.push(rateText("enforce", b.enforce));
  out.push(rateText("strict", b.strict));
  out.push(...asksText(b.asks));
  out.push(...kindsText(b.commandKinds));
  return out;
}

const share = (blocked: number, calls: number): string =>
  calls === 0 ? "" : ` (${((blocked / calls) * 100).toFixed(1)}%)`;

/** Issue 19's figure: untainted commands stopped at strict, by kind; what `other` holds, by program. */
function kindsText(k: BenignReport["commandKinds"]): string[] {
  const rows = Object.entries(k.kinds);
  if (rows.every(([, r]) => r.calls === 0)) return [];
  const out = ["  commands at strict in untainted sessions, by kind (blocked of calls):"];
  for (const [kind, r] of rows)
    out.push(`    ${kind.padEnd(17)} ${r.blocked} of ${r.calls}${share(r.blocked, r.calls)}`);
  const other = Object.entries(k.other).sort((x, y) => y[1].calls - x[1].calls || (x[0] < y[0] ? -1 : 1));
  if (other.length > 0)
    out.push(`    other holds: ${other.map(([p, r]) => `${esc(p)} ${r.blocked} of ${r.calls}`).join(", ")}`);
  return out;
}

/** Strict's confirms: asked in the chat or a dialog, or refused, by channel (docs/asking.md). */
function asksText(a: BenignReport["asks"]): string[] {
  const chat = a.asked.elicitation + a.asked.input_required;
  const refused = a.refused["out of band"] + a.refused.none + a.refused.flood;
  // The dialog's figures only where a session offered one: older logs read as before.
  const dialog = a.asked.dialog + a.refused.flood > 0;
  const asked = dialog
    ? `${chat + a.asked.dialog} asked (in the chat ${chat}: elicitation ${a.asked.elicitation}, input_required ${a.asked.input_required}; in a dialog ${a.asked.dialog})`
    : `${chat} asked in the chat (elicitation ${a.asked.elicitation}, input_required ${a.asked.input_required})`;
  const flood = dialog ? `, too many dialog questions ${a.refused.flood}` : "";
  return [
    `  confirms at strict: ${asked}, ${refused} refused (out of band ${a.refused["out of band"]}, none ${a.refused.none}${flood})`,
    `  questions per active hour at strict: ${a.questionsPerActiveHour === null ? "no active time" : a.questionsPerActiveHour}`,
  ];
}

function verdictText(v: BenignReport["verdicts"]): string {
  return `${v.allow} allow, ${v.confirm} confirm, ${v.deny} deny`;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Calls and answers the measurement could not use, said rather than silently left out. */
function notJudged(b: BenignReport): string[] {
  const out: string[] = [];
  const { unjudged, answers } = b;
  if (unjudged.tooLarge > 0)
    out.push(
      `  ${plural(unjudged.tooLarge, "call", "calls")} could not be judged again: ${unjudged.tooLarge} in frames too large to re-judge (over 16 MiB: the log keeps only their first 64 KiB)`,
    );
  if (answers.tooLarge > 0)
    out.push(
      `  ${plural(answers.tooLarge, "answer", "answers")} over 16 MiB not shown to the judge (the log keeps only their first 64 KiB)`,
    );
  if (answers.noRequest > 0)
    out.push(
      `  ${plural(answers.noRequest, "answer", "answers")} with no matching request, scanned as content of no request (as the relay does)`,
    );
  if (answers.early > 0)
    out.push(
      `  ${plural(answers.early, "answer", "answers")} logged before ${answers.early === 1 ? "its call" : "their calls"} had fully crossed (observe passes bytes on first): taken as ${answers.early === 1 ? "that call's answer" : "those calls' answers"}`,
    );
  return out;
}
