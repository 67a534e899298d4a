// `effectgate allow ID [--for 10m]`: answer a waiting question yes (src/relay/client/ask-store.ts).
import { EXIT, UsageError } from "../core/errors.js";
import { escapeUntrusted } from "../core/text/terminal-text.js";
import { ASK_ID, AskStore, MAX_GRANT_MS } from "../relay/client/ask-store.js";
import { effectgateHome } from "../platform/home.js";
import type { CommandDeclaration } from "./cli/declaration.js";

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `10m`, `2h`: a whole number and a unit, at most a day. */
function parseFor(text: string): number {
  const m = /^([1-9][0-9]{0,5})([smh])$/.exec(text);
  const ms = m ? Number(m[1]) * (UNITS[m[2] as string] as number) : NaN;
  if (!(ms <= MAX_GRANT_MS))
    throw new UsageError(
      `expected a duration such as 90s, 10m or 2h, at most 24h, got ${JSON.stringify(text)}`,
    );
  return ms;
}

export const command: CommandDeclaration = {
  description:
    "Allow a question that waits (see `effectgate pending`). The yes is bound to the exact " +
    "effect asked about: the server, the tool, and every path and command of the call. A call " +
    "with any other effect is asked about anew. Without --for, the next such call goes through " +
    "once, within 15 minutes; with --for, every such call does until then. Exit 1 if no " +
    "question waits under ID.",
  options: [
    {
      flags: "--for <duration>",
      meaning: "allow every call with exactly this effect for this long (90s, 10m, 2h; at most 24h)",
      default: "one call",
      parse: parseFor,
    },
  ],
  operands: [{ name: "<ID>", meaning: "the id the refusal and `effectgate pending` show", default: "none" }],
  examples: [
    { command: "effectgate allow 3f9a0c21", says: "the client's retry of that call goes through, once" },
    { command: "effectgate allow 3f9a0c21 --for 10m", says: "the same call goes through for ten minutes" },
  ],
  run: async (parsed) => {
    const id = parsed.operands[0] ?? "";
    if (!ASK_ID.test(id))
      throw new UsageError(
        `expected an id of 8 hex digits (see effectgate pending), got ${JSON.stringify(id)}`,
      );
    const store = new AskStore(effectgateHome(process.env));
    const q = store.listPending().find((p) => p.id === id);
    if (!q) {
      process.stderr.write(
        `effectgate allow: no question waits as ${id}; \`effectgate pending\` lists what waits\n`,
      );
      return EXIT.finding;
    }
    const forMs = parsed.options.for as number | undefined;
    const grant = store.grant(id, forMs);
    const safe = (s: string): string => escapeUntrusted(s, "diff");
    const until = new Date(grant.expires).toISOString();
    process.stdout.write(
      [
        `allowed ${id}: ${safe(q.tool)} on ${safe(q.server)}`,
        ...q.effects.map((e) => `  ${e.verb} ${safe(e.target)}`),
        grant.uses === "once"
          ? `the next call with exactly this effect goes through once, until ${until}; ask the client to retry it`
          : `every call with exactly this effect goes through until ${until}`,
      ].join("\n") + "\n",
    );
    return EXIT.ok;
  },
};
