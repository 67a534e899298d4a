// `effectgate allow ID [--for 10m | --project]`: answer a waiting question yes
// (src/relay/client/ask-store.ts); `effectgate allow --list`: the grants that answer questions.
import { EXIT, UsageError } from "../core/errors.js";
import { escapeUntrusted } from "../core/text/terminal-text.js";
import { ASK_ID, AskStore, MAX_GRANT_MS, type PendingQuestion } from "../relay/client/ask-store.js";
import { grantFileOf, ProjectGrantBook } from "../relay/gates/project-grant-book.js";
import { effectgateHome, userName } from "../platform/home.js";
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

const safe = (s: string): string => escapeUntrusted(s, "diff");

/** What a grant allows, one line per effect, as `pending` shows a question. */
function effectLines(effects: readonly { verb: string; target: string }[] | undefined): string[] {
  return (effects ?? []).map((e) => `    ${e.verb} ${safe(e.target)}`);
}

/**
 * The grants in force: those `allow ID` wrote under EFFECTGATE_HOME, and the project's file in
 * this folder (the folder a relay started here reads). A "this session" yes lives in its
 * relay's memory only, so it cannot be listed from here.
 */
async function list(): Promise<number> {
  const store = new AskStore(effectgateHome(process.env));
  const out: string[] = [];
  const grants = store.listGrants();
  out.push(
    grants.length === 0 ? "no grants from effectgate allow wait for a call" : "from effectgate allow:",
  );
  for (const g of grants) {
    const until = new Date(g.expires).toISOString();
    const what = g.tool === undefined ? "" : ` ${safe(g.tool)} on ${safe(g.server ?? "?")},`;
    out.push(`  ${g.id}${what} ${g.uses === "once" ? "one call" : "every call"} until ${until}`);
    out.push(...effectLines(g.effects));
  }
  const root = process.cwd();
  const file = grantFileOf(root);
  const { readProjectGrantFile } = await import("../relay/gates/project-grants-file.js");
  const project = readProjectGrantFile(file, root);
  out.push(
    project.grants.length === 0
      ? `no grants for this project in ${safe(file)}`
      : `always in this project (${safe(file)}):`,
  );
  for (const g of project.grants) {
    out.push(
      `  line ${g.line}: ${safe(g.tool)} on ${safe(g.server)}, by ${safe(g.by)} at ${safe(g.granted)}`,
    );
    out.push(...effectLines(g.effects));
  }
  for (const g of project.otherRoot)
    out.push(`  line ${g.line}: for another project root (${safe(g.root)}), ignored here`);
  out.push('a yes for "this session" lives in its relay and ends with it; it is not listed here');
  process.stdout.write(out.join("\n") + "\n");
  return EXIT.ok;
}

/** Writes the question's effect into the project it was asked in (decision 0134). */
async function keepForProject(q: PendingQuestion, id: string): Promise<string> {
  const place = await new ProjectGrantBook(q.cwd).add({
    tool: q.tool,
    server: q.server,
    method: q.method,
    effects: q.effects,
    key: q.key,
    granted: new Date().toISOString(),
    by: `${userName()}, effectgate allow ${id} --project`,
  });
  return `${place.file}:${place.line}`;
}

export const command: CommandDeclaration = {
  description:
    "Allow a question that waits (see `effectgate pending`). The yes is bound to the exact " +
    "effect asked about: the server, the tool, and every path and command of the call. A call " +
    "with any other effect is asked about anew. Without --for, the next such call goes through " +
    "once, within 15 minutes; with --for, every such call does until then. With --project, " +
    "it is also written to .effectgate/allow.yaml in the project, and allowed there from then " +
    "on. --list prints the grants. Exit 1 if no question waits under ID.",
  options: [
    {
      flags: "--for <duration>",
      meaning: "allow every call with exactly this effect for this long (90s, 10m, 2h; at most 24h)",
      default: "one call",
      parse: parseFor,
    },
    {
      flags: "--project",
      meaning: "also allow this exact effect always in the project it was asked in (.effectgate/allow.yaml)",
      default: "not kept",
    },
    {
      flags: "--list",
      meaning: "print the grants that wait for a call and this folder's project grants, then exit",
      default: "off",
    },
  ],
  operands: [{ name: "[ID]", meaning: "the id the refusal and `effectgate pending` show", default: "none" }],
  examples: [
    { command: "effectgate allow 3f9a0c21", says: "the client's retry of that call goes through, once" },
    { command: "effectgate allow 3f9a0c21 --for 10m", says: "the same call goes through for ten minutes" },
    {
      command: "effectgate allow 3f9a0c21 --project",
      says: "that effect is allowed in this project from now on",
    },
  ],
  run: async (parsed) => {
    const forMs = parsed.options.for as number | undefined;
    const project = parsed.options.project === true;
    if (parsed.options.list === true) {
      if (parsed.operands.length > 0 || forMs !== undefined || project)
        throw new UsageError("--list: expected no ID, --for or --project with it");
      return list();
    }
    if (project && forMs !== undefined)
      throw new UsageError("--project: expected no --for with it (a project grant has no end)");
    const id = parsed.operands[0];
    if (id === undefined)
      throw new UsageError("expected an ID (see effectgate pending) or --list, got nothing");
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
    // Written first: a file that cannot take the entry (exit 78) leaves the question waiting.
    const kept = project ? await keepForProject(q, id) : undefined;
    const grant = store.grant(id, forMs);
    const until = new Date(grant.expires).toISOString();
    process.stdout.write(
      [
        `allowed ${id}: ${safe(q.tool)} on ${safe(q.server)}`,
        ...q.effects.map((e) => `  ${e.verb} ${safe(e.target)}`),
        grant.uses === "once"
          ? `the next call with exactly this effect goes through once, until ${until}; ask the client to retry it`
          : `every call with exactly this effect goes through until ${until}`,
        ...(kept === undefined
          ? []
          : [
              `kept always in this project: ${safe(kept)} (a relay started there from now on allows it unasked)`,
            ]),
      ].join("\n") + "\n",
    );
    return EXIT.ok;
  },
};
