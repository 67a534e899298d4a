/**
 * The question put to the user at strict. It shows every effect of the call whole, each untrusted
 * character escaped, so that what the user approves is what the server will do: a command cut to
 * its first 197 characters hid `; touch PAYLOAD` after a long build line, and raw bidi characters
 * reordered what the user read (issue 17). A question too long to show whole is not asked: a
 * person cannot approve what they cannot read, and no cut can promise to keep the dangerous part
 * (a shell reads `;`, `&&`, `$(…)` and newlines anywhere), so the call is refused instead
 * (docs/decisions/0071-what-a-person-is-shown.md).
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

/** The whole question, or how long it would be when that is more than MAX_QUESTION_CHARS. */
export function askQuestion(f: QuestionFacts): Question {
  const d = f.decision;
  const effects = effectLines(d.effects);
  const body = [
    `effectgate: allow this call to "${shown(subjectOf(f.method, f.params))}"? It would:`,
    ...(effects.length > 0 ? effects : ["- (it names no path, command or address)"]),
    `Rule: ${shown(d.rule ?? "(none)")}.${d.tainted ? " The session has taken in untrusted content." : ""}`,
  ].join("\n");
  if (body.length > MAX_QUESTION_CHARS) return { ok: false, chars: body.length };
  const policy = f.policySource === "default" ? "the default policy" : shown(f.policySource);
  return { ok: true, text: `${body}\nPolicy: ${policy}.` };
}
