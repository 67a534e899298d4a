// `effectgate replay [options] [LOG|DIR]`: a readable, deterministic transcript of session logs,
// filtered and totalled, as text, JSON records or one HTML page.
import { writeFileSync } from "node:fs";
import { basename, relative } from "node:path";
import { EXIT, UsageError } from "../core/errors.js";
import { GlobSet, globProblem } from "../core/policy/globs.js";
import { escapeForTerminal, terminalSafeJson } from "../core/replay/escape.js";
import { chosenItems, hasLineFilter, isServer, type LineFilter } from "../core/replay/filter.js";
import { formatFile, jsonRecords, type Style, type Unreadable } from "../core/replay/format.js";
import { replayPage, type PageSession } from "../core/replay/html.js";
import type { ReplaySession } from "../core/replay/replay-item.js";
import { parseSince } from "../core/replay/since.js";
import { addSession, emptyTotals, formatTotals } from "../core/replay/totals.js";
import { buildTranscript } from "../core/replay/transcript.js";
import { parseLogFileName } from "../log/naming.js";
import { defaultSessionsDir } from "../log/naming.js";
import { listLogs, tryReadLogFile } from "../log/reader.js";
import { partEntries, sessionParts, startOf, withLaterParts } from "../log/sessions.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { colourOption, htmlOption, useColour } from "./cli/values.js";

interface Options {
  json: boolean;
  last?: number;
  since?: number;
  server?: (name: string) => boolean;
  refused: boolean;
  tool?: (name: string) => boolean;
  grep?: RegExp;
  color: boolean;
  html?: string;
}

/** A name glob in the policy's syntax (docs/policy.md), as a test of a name. */
const glob = (text: string): ((name: string) => boolean) => {
  const problem = globProblem(text);
  if (problem !== undefined) throw new UsageError(`expected ${problem}, got ${JSON.stringify(text)}`);
  const set = new GlobSet([text]);
  return (name) => set.first(name) !== undefined;
};

export const command: CommandDeclaration = {
  description:
    "Print a transcript of session logs: one line per message with its time since the session " +
    "started, allowed calls with what they touch (canonical paths, commands), and totals at the " +
    'end. Marks: "!!" refused, "??" asked, "~~" a notice (relayed, or refused only at ' +
    'enforce), "^^" taint, "##" pins, "2>" server stderr, "**" the log\'s own troubles. A ' +
    "folder is read oldest first. Text from a server or a model is shown with control and " +
    "bidi characters escaped (\\x1b, \\u202e). A log in the folder that cannot be read is " +
    "reported and skipped, and replay exits 1; a log named here that cannot be read is a " +
    "usage error (exit 2).",
  options: [
    {
      flags: "--last <n>",
      meaning: "only the newest n sessions (of those the other options choose)",
      default: "every session",
      parse: (text) => {
        if (!/^[1-9]\d{0,8}$/.test(text))
          throw new UsageError(`expected a whole number from 1, got ${JSON.stringify(text)}`);
        return Number(text);
      },
    },
    {
      flags: "--since <when>",
      meaning: "only sessions started since then: 30m, 12h, 7d, 2w ago, or a UTC date or date-time",
      default: "any time",
      parse: (text) => parseSince(text, Date.now()),
    },
    {
      flags: "--server <glob>",
      meaning: "only sessions of servers whose --name (or a word of whose command) matches",
      default: "every server",
      parse: glob,
    },
    {
      flags: "--refused",
      meaning: "only the lines about calls effectgate refused, and the sessions that have any",
      default: "off",
    },
    {
      flags: "--tool <glob>",
      meaning: "only the lines about tools whose name matches (read_*, *exec*)",
      default: "every tool",
      parse: glob,
    },
    {
      flags: "--grep <regex>",
      meaning: "only the lines whose text matches this regular expression, ignoring case",
      default: "every line",
      parse: (text) => {
        try {
          return new RegExp(text, "i");
        } catch (err) {
          throw new UsageError(
            `expected a regular expression, got ${JSON.stringify(text)}: ${(err as Error).message}`,
          );
        }
      },
    },
    {
      flags: "--json",
      meaning: "one JSON record per line (file, session, item, summary, totals) instead of text",
      default: "off",
    },
    htmlOption("write the chosen sessions as one self-contained HTML page to this file"),
    colourOption,
  ],
  operands: [
    {
      name: "[LOG|DIR]",
      meaning: "a session log, or a folder of them",
      default: "$EFFECTGATE_HOME/sessions, else ~/.effectgate/sessions",
    },
  ],
  examples: [
    { command: "effectgate replay --last 5", says: "the five newest sessions recorded on this machine" },
    {
      command: "effectgate replay --since 7d --refused --server fs",
      says: "what effectgate refused the fs server this week",
    },
    { command: "effectgate replay --since 1d --html today.html", says: "today's sessions as one page" },
  ],
  run: (parsed) => replay(parsed.operands[0], parsed.options as unknown as Options),
};

/** One session chosen for output, with the lines of it that are shown. */
interface Shown {
  session: ReplaySession;
  items: ReplaySession["items"];
}

/** A session log and its later parts, read and filtered. */
interface Group {
  parts: string[];
  shown: string;
  first: string;
  unreadable: Unreadable[];
  sessions: Shown[];
}

async function replay(target: string | undefined, opts: Options): Promise<number> {
  const path = target ?? defaultSessionsDir();
  const listing = listLogs(path);
  if (listing.kind === "unreadable")
    throw new UsageError(`expected a readable log file or folder, got "${path}": ${listing.why}`);
  if (listing.kind === "missing") {
    if (target !== undefined)
      throw new UsageError(`expected a log file or folder, got "${target}", which does not exist`);
    return nothingToReplay(opts, path, false);
  }
  const files = listing.files;
  if (files.length === 0) return nothingToReplay(opts, path, true);
  const namedFile = listing.kind === "file";
  const lines: LineFilter = {
    refused: opts.refused,
    ...(opts.tool !== undefined ? { tool: opts.tool } : {}),
    ...(opts.grep !== undefined ? { grep: opts.grep } : {}),
  };
  const filtered = hasLineFilter(lines);
  const shownOf = (file: string): string =>
    target === undefined || files.length > 1 ? relative(path, file) || file : file;

  const read = (parts: string[]): Group => {
    const got = parts.map((file) => ({ file, got: tryReadLogFile(file) }));
    const unreadable: Unreadable[] = [];
    for (const { file, got: g } of got) {
      if (g.ok) continue;
      // The file the user named is the input itself: nothing else to show, a usage error.
      if (namedFile && file === path)
        throw new UsageError(`expected a readable log file, got "${path}": ${g.why}`);
      unreadable.push({ file: shownOf(file), why: g.why });
      process.stderr.write(
        `effectgate: replay: skipped ${terminalSafeJson(file)}: expected a readable session log, got ${escapeForTerminal(g.why)}\n`,
      );
    }
    const sessions = buildTranscript(
      got.flatMap(({ file, got: g }) => (g.ok ? partEntries(file, g.lines) : [])),
    )
      .filter((s) => chosenSession(s, opts))
      .map((session) => ({ session, items: chosenItems(session, lines) }))
      .filter((s) => !filtered || s.items.length > 0);
    const later = parts.slice(1).map((f) => parseLogFileName(basename(f))?.part);
    const first = shownOf(parts[0] as string);
    const shown = `${first}${later.length > 0 ? ` (+ parts ${later.join(", ")})` : ""}`;
    return { parts, shown, first, unreadable, sessions };
  };

  let groups = sessionParts(namedFile ? withLaterParts(path) : files).filter(
    (parts) => !startedBefore(parts[0] as string, opts.since),
  );
  const chosen: Group[] = [];
  if (opts.last !== undefined) {
    // Newest first until enough sessions are found; shown oldest first all the same.
    let found = 0;
    for (let i = groups.length - 1; i >= 0 && found < opts.last; i--) {
      const g = read(groups[i] as string[]);
      g.sessions = g.sessions.slice(-(opts.last - found));
      found += g.sessions.length;
      chosen.unshift(g);
    }
    groups = [];
  }
  const style: Style = { colour: opts.html === undefined && !opts.json && useColour(opts.color) };
  const totals = emptyTotals();
  const page: PageSession[] = [];
  let skipped = 0;
  const emit = (g: Group): void => {
    skipped += g.unreadable.length;
    for (const s of g.sessions) addSession(totals, s.session, s.items, filtered);
    if (g.sessions.length === 0 && (g.unreadable.length === 0 || filtered)) return;
    if (opts.html !== undefined) {
      for (const s of g.sessions) page.push({ file: g.first, ...s });
    } else if (opts.json) {
      const names = g.parts.length > 1 ? g.parts.map(shownOf) : undefined;
      const byItems = new Map(g.sessions.map((s) => [s.session, s.items]));
      const sessions = g.sessions.map((s) => s.session);
      for (const rec of jsonRecords(g.first, sessions, names, g.unreadable, (s) => byItems.get(s) ?? s.items))
        process.stdout.write(`${terminalSafeJson(rec)}\n`);
    } else {
      const byItems = new Map(g.sessions.map((s) => [s.session, s.items]));
      const text = formatFile(
        g.shown,
        g.sessions.map((s) => s.session),
        g.unreadable,
        style,
        (s) => byItems.get(s) ?? s.items,
      );
      process.stdout.write(`${text.join("\n")}\n`);
    }
  };
  for (const g of chosen) emit(g);
  for (const parts of groups) emit(read(parts));

  if (opts.html !== undefined) {
    writeFileSync(opts.html, replayPage(page, totals, { source: path }));
    process.stdout.write(`wrote ${opts.html}: ${formatTotals(totals).replace(/^== totals: /, "")}\n`);
  } else if (opts.json) process.stdout.write(`${terminalSafeJson({ type: "totals", ...totals })}\n`);
  else process.stdout.write(`${formatTotals(totals)}\n`);
  // A transcript with a hole in it is not a clean run: exit 1 says something was left out
  // (docs/decisions/0064-unreadable-inputs-and-shared-taint-freshness.md).
  return skipped > 0 ? EXIT.finding : EXIT.ok;
}

function chosenSession(s: ReplaySession, opts: Options): boolean {
  if (opts.server !== undefined && !isServer(s, opts.server)) return false;
  if (opts.since !== undefined) {
    const start = s.start === null ? NaN : Date.parse(s.start);
    if (!(start >= opts.since)) return false;
  }
  return true;
}

/** A log whose name says it started before `since` is not read at all. */
function startedBefore(file: string, since: number | undefined): boolean {
  const start = startOf(file);
  return since !== undefined && start !== undefined && start < since;
}

/**
 * No logs at all. With --json the answer is still JSON (one `folder` record), so that
 * `replay --json | jq` works on an empty or new machine.
 */
function nothingToReplay(opts: Options, path: string, exists: boolean): number {
  if (opts.html !== undefined) {
    writeFileSync(opts.html, replayPage([], emptyTotals(), { source: path }));
    process.stdout.write(`wrote ${opts.html}: no sessions recorded at ${path}\n`);
  } else if (opts.json)
    process.stdout.write(`${terminalSafeJson({ type: "folder", folder: path, exists, logs: 0 })}\n`);
  else if (exists) process.stdout.write(`no session logs (*.jsonl) in ${path}\n`);
  else process.stdout.write(`no sessions recorded at ${path} yet\n`);
  return EXIT.ok;
}
