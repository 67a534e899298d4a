// `effectgate pending [--json]`: the questions that wait for a person (src/relay/client/ask-store.ts).
import { EXIT } from "../core/errors.js";
import { escapeUntrusted } from "../core/text/terminal-text.js";
import { AskStore, type PendingQuestion } from "../relay/client/ask-store.js";
import { effectgateHome } from "../platform/home.js";
import type { CommandDeclaration } from "./cli/declaration.js";

export const command: CommandDeclaration = {
  description:
    "List the questions that wait for your word. At --level strict, a call the policy would " +
    "confirm in a client that cannot ask you (no elicitation, or a 2026-07-28 session) is " +
    "refused and waits here. Allow one with `effectgate allow ID`, then have the client retry " +
    "exactly that call. A question is gone after 15 minutes. Text a model chose is escaped.",
  options: [
    {
      flags: "--json",
      meaning: "a JSON array of {id, server, tool, effects, …} instead of text",
      default: "off",
    },
  ],
  examples: [
    { command: "effectgate pending", says: "what waits, and the command that allows each" },
    { command: "effectgate pending --json | jq -r '.[].id'", says: "the ids, for a script" },
  ],
  run: async (parsed) => {
    const waiting = new AskStore(effectgateHome(process.env)).listPending();
    process.stdout.write(
      parsed.options.json === true ? `${JSON.stringify(waiting.map(asJson), null, 2)}\n` : asText(waiting),
    );
    return EXIT.ok;
  },
};

function asJson(q: PendingQuestion): Record<string, unknown> {
  return {
    id: q.id,
    server: q.server,
    method: q.method,
    tool: q.tool,
    effects: q.effects,
    rule: q.rule,
    reason: q.reason,
    asked: new Date(q.created).toISOString(),
    expires: new Date(q.expires).toISOString(),
    pid: q.pid,
    cwd: q.cwd,
    key: q.key,
  };
}

function asText(waiting: readonly PendingQuestion[]): string {
  if (waiting.length === 0) return "no questions wait\n";
  const safe = (s: string): string => escapeUntrusted(s, "diff");
  const lines: string[] = [];
  for (const q of waiting) {
    lines.push(
      `${q.id}  ${safe(q.tool)} on ${safe(q.server)} (${q.method}), asked ${new Date(q.created).toISOString()}`,
    );
    for (const e of q.effects) lines.push(`  ${e.verb} ${safe(e.target)}`);
    lines.push(`  why: ${safe(q.reason)}${q.rule === null ? "" : ` (rule ${safe(q.rule)})`}`);
    lines.push(`  allow it: effectgate allow ${q.id}`);
  }
  return `${lines.join("\n")}\n`;
}
