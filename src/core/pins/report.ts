import type { DetailedToolChange } from "./compare.js";
import { escapeForTerminal } from "./escape.js";
import type { Finding } from "./severity.js";

/** One printable line of a diff: the sentence with its severity and any old/new text. */
export type ReportLine = Finding;

/** Server-level findings first, then tool changes in the order found, one sentence each. */
export function reportLines(server: readonly Finding[], tools: readonly DetailedToolChange[]): ReportLine[] {
  const out: ReportLine[] = [...server];
  for (const c of tools) {
    c.findings.forEach((f, i) => out.push({ ...f, text: c.sentences[i] ?? `tool "${c.tool}": ${f.text}` }));
  }
  return out;
}

const MAX_SHOWN = 2000;

function shown(text: string | null): string {
  if (text === null) return "(none)";
  const cut =
    text.length > MAX_SHOWN
      ? `${text.slice(0, MAX_SHOWN)}… (${text.length - MAX_SHOWN} more characters)`
      : text;
  return `"${escapeForTerminal(cut)}"`;
}

/**
 * Lines for a terminal. Everything that came from the server (names inside sentences,
 * descriptions) goes through escapeForTerminal, so no server text reaches the terminal raw.
 */
export function formatReport(lines: readonly ReportLine[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    out.push(`  ${`[${l.severity}]`.padEnd(9)}${escapeForTerminal(l.text)}`);
    if (l.was !== undefined) out.push(`             was: ${shown(l.was)}`);
    if (l.now !== undefined) out.push(`             now: ${shown(l.now)}`);
  }
  return out;
}

/**
 * A first approval has nothing to compare with, so it has no findings to rank: every tool is
 * "new", and calling each one [high] buried the few lines that matter. It lists what will be
 * pinned, each tool with its description (prompt text the model will obey), for a person to
 * read. Tools that cannot be pinned keep their ranked line.
 */
export function formatFirstApproval(tools: readonly DetailedToolChange[]): string[] {
  const out: string[] = [];
  const problems: ReportLine[] = [];
  for (const c of tools) {
    if (c.kind !== "added") {
      problems.push(...reportLines([], [c]));
      continue;
    }
    const description = c.findings[0]?.now ?? null;
    out.push(`  tool "${escapeForTerminal(c.tool)}": ${shown(description)}`);
  }
  return [...formatReport(problems), ...out];
}
