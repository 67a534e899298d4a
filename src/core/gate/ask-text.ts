/**
 * The question put to the user at strict. It shows every effect of the call whole, each untrusted
 * character escaped, so that what the user approves is what the server will do: a command cut to
 * its first 197 characters hid `; touch PAYLOAD` after a long build line, and raw bidi characters
 * reordered what the user read (issue 17). A question too long to show whole is not asked: a
 * person cannot approve what they cannot read, and no cut can promise to keep the dangerous part
 * (a shell reads `;`, `&&`, `$(…)` and newlines anywhere), so the call is refused instead
 * (docs/decisions/0071-what-a-person-is-shown.md). A shell command read program by program
 * is shown as typed first, then what each program does: the pieces alone do not say how they
 * join (`&&`, `|`, `;`), and the user knows the line, not its parse.
 */
import { describeDestination } from "../net/destination-text.js";
import { escapeUntrusted } from "../text/terminal-text.js";
import type { Decision, Effect } from "../types.js";

/** Characters a question may have, effects and all, before it is refused as too long to read. */
export const MAX_QUESTION_CHARS = 16 * 1024;

export interface QuestionFacts {
  method: string;
  params: unknown;
  decision: Decision;
  /** `default` or the policy file's path. */
  policySource: string;
}

export type Question = { ok: true; text: string } | { ok: false; chars: number };

/** What the call is to: the tool's name, a resource's URI, else the method. */
function subjectOf(method: string, params: unknown): string {
  const p = params !== null && typeof params === "object" ? (params as Record<string, unknown>) : {};
  if (method === "resources/read" && typeof p["uri"] === "string") return p["uri"];
  return typeof p["name"] === "string" ? p["name"] : method;
}

/** Untrusted text as it may be shown: every hidden character and backslash visible, one line. */
const shown = (s: string): string => escapeUntrusted(s, "diff");

const VERB: Record<Effect["operation"], string> = {
  read: "read",
  write: "write",
  exec: "run",
  send: "send to",
};

/** One line per effect the call would have, duplicates once, in the decision's order. */
export function effectLines(effects: readonly Effect[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const e of effects) {
    const where = e.canonical ?? e.spelled;
    // JSON keeps the parts apart whatever characters they hold.
    const key = JSON.stringify([e.operation, e.kind, where]);
    if (seen.has(key)) continue;
    seen.add(key);
    if (e.kind === "command") lines.push(`- run this command:\n    ${shown(e.spelled)}`);
    else if (e.kind === "url") lines.push(`- fetch ${shown(e.spelled)}`);
    else if (e.kind === "egress") {
      // Where the data goes, in words, and the call's own spelling of it when that differs.
      const to = e.destination === undefined ? e.spelled : describeDestination(e.destination);
      lines.push(`- send data to ${shown(to)}${to !== e.spelled ? ` (spelled ${shown(e.spelled)})` : ""}`);
    } else
      lines.push(
        `- ${VERB[e.operation]} ${shown(where)}${e.canonical !== undefined && e.canonical !== e.spelled ? ` (spelled ${shown(e.spelled)})` : ""}`,
      );
  }
  return lines;
}

/**
 * The command lines the call typed, whole, for the effects read from a parsed command (they
 * carry `via`, and `at` names the argument). A line that is also one program's command is left
 * to that effect's own line.
 */
function typedCommands(params: unknown, effects: readonly Effect[]): string[] {
  const p = params !== null && typeof params === "object" ? (params as Record<string, unknown>) : {};
  const args = p["arguments"];
  if (args === null || typeof args !== "object") return [];
  const programs = new Set(effects.filter((e) => e.kind === "command").map((e) => e.spelled));
  const out: string[] = [];
  for (const e of effects) {
    const name = e.via === undefined ? undefined : /^arguments\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(e.at)?.[1];
    if (name === undefined) continue;
    const value = (args as Record<string, unknown>)[name];
    // One string, or a list of words (argv), as the extraction reads a command.
    const line =
      typeof value === "string"
        ? value
        : Array.isArray(value) && value.every((w) => typeof w === "string")
          ? value.join(" ")
          : undefined;
    if (line !== undefined && !programs.has(line) && !out.includes(line)) out.push(line);
  }
  return out;
}

/** The whole question, or how long it would be when that is more than MAX_QUESTION_CHARS. */
export function askQuestion(f: QuestionFacts): Question {
  const d = f.decision;
  const typed = typedCommands(f.params, d.effects).map(
    (c) => `- run this command line, as typed:\n    ${shown(c)}`,
  );
  const effects = effectLines(d.effects);
  const body = [
    `effectgate: allow this call to "${shown(subjectOf(f.method, f.params))}"? It would:`,
    ...typed,
    ...(effects.length > 0 ? effects : ["- (it names no path, command or address)"]),
    `Rule: ${shown(d.rule ?? "(none)")}.${d.tainted ? " The session has taken in untrusted content." : ""}`,
  ].join("\n");
  if (body.length > MAX_QUESTION_CHARS) return { ok: false, chars: body.length };
  const policy = f.policySource === "default" ? "the default policy" : shown(f.policySource);
  return { ok: true, text: `${body}\nPolicy: ${policy}.` };
}
