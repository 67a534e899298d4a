// `effectgate status`: what is guarded, what was recorded, and what enforce and strict would have
// refused lately — from the client configs and the session logs on this machine, offline.
import { lstatSync, statSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { recognise } from "../clients/relay-argv.js";
import { currentLauncher } from "../clients/launcher.js";
import { snapshot } from "../clients/snapshot.js";
import { DEFAULT_POLICY_PATH } from "../config/default-policy.js";
import { readPolicy } from "../config/policy-file.js";
import { EXIT } from "../core/errors.js";
import { evaluateBenign, type BenignSession } from "../core/evaluation/benign.js";
import { createSessionJudge } from "../core/judge/session.js";
import type { CompiledPolicy, JudgeEnvironment } from "../core/policy/api.js";
import { askChannelOf, offersDialog, type AskChannel } from "../core/gate/ask-channel.js";
import { isRecord } from "../core/wire/jsonrpc.js";
import { terminalSafeJson } from "../core/replay/escape.js";
import { buildTranscript } from "../core/replay/transcript.js";
import type { PageSession } from "../core/replay/html.js";
import { statusPage } from "../core/status/html.js";
import {
  formatStatus,
  groupsAt,
  type ClientStatus,
  type RecentSession,
  type StatusReport,
  type WouldRefuse,
} from "../core/status/report.js";
import { defaultSessionsDir } from "../log/naming.js";
import { listLogs, tryReadLogFile } from "../log/reader.js";
import { keepSetting } from "../log/retention.js";
import { partEntries, sessionParts } from "../log/sessions.js";
import { machineFacts } from "../platform/client-paths.js";
import { isOffValue } from "../relay/gates/off-switch.js";
import { benignEnvironment, thisPlatform } from "./benign-environment.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { htmlOption, projectOption } from "./cli/values.js";

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 7;
const RECENT = 5;

interface Options {
  project?: string;
  logDir?: string;
  json: boolean;
  html?: string;
}

export const command: CommandDeclaration = {
  description:
    "Show what effectgate guards and what it saw: each server in each client config (wrapped " +
    "or not, with its level, policy and lock), the session logs (size, retention), the last " +
    `sessions, and the calls of the last ${WINDOW_DAYS} days that enforce and strict would have refused, ` +
    "grouped by rule, with the command that switches level and the way to allow them. The " +
    "calls are judged again as enforce and strict would have run each session, under the " +
    "policy it ran with, as eval does. Offline: reads files only. Exit 1 when a log or a " +
    "policy could not be read (the numbers then leave it out).",
  options: [
    { ...projectOption, meaning: "the project folder whose configs (.mcp.json, .cursor/ …) are read too" },
    { flags: "--log-dir <dir>", meaning: "the session logs to read", default: "$EFFECTGATE_HOME/sessions" },
    { flags: "--json", meaning: "one JSON document instead of text", default: "off" },
    htmlOption("also write the report as one self-contained HTML page to this file"),
  ],
  examples: [
    { command: "effectgate status", says: "what is wrapped, and what enforce would have refused this week" },
    {
      command: "effectgate status --html status.html",
      says: "the same as a page, with the last sessions drawn",
    },
  ],
  run: (parsed) => status(parsed.options as unknown as Options),
};

async function status(o: Options): Promise<number> {
  const now = Date.now();
  const facts = machineFacts();
  const home = facts.home;
  const dir = o.logDir ?? defaultSessionsDir();
  const keep = keepSetting(process.env);
  const report: StatusReport = {
    clients: clientStatus(o.project ?? process.cwd()),
    logs: {
      dir,
      exists: false,
      sessions: 0,
      bytes: 0,
      oldest: null,
      keepDays: keep.ok ? keep.days : null,
      keepFrom: keep.ok ? keep.from : keep.problem,
    },
    recent: [],
    window: {
      days: WINDOW_DAYS,
      since: new Date(now - WINDOW_DAYS * DAY_MS).toISOString(),
      sessions: 0,
      calls: 0,
      enforce: { ok: false, blocks: 0, calls: 0, why: "no sessions" },
      strict: { ok: false, blocks: 0, calls: 0, why: "no sessions" },
      refusedAt: { enforce: [], strict: [] },
      notJudged: [],
      unreadable: [],
    },
    shippedPolicy: DEFAULT_POLICY_PATH,
    home,
  };
  const listing = listLogs(dir);
  const page: PageSession[] = [];
  if (listing.kind === "folder") {
    report.logs.exists = true;
    const groups = sessionParts(listing.files);
    report.logs.sessions = groups.length;
    report.logs.bytes = listing.files.reduce((n, f) => n + sizeOf(f), 0);
    const since = now - WINDOW_DAYS * DAY_MS;
    // Read: the newest few (shown), and every session written to in the window (judged again).
    const recent = new Set(groups.slice(-RECENT));
    const judged = groups.filter((g) => g.some((f) => modifiedSince(f, since)));
    const read = new Map<string[], BenignSession[]>();
    for (const g of new Set([...recent, ...judged])) {
      const files: BenignSession[] = [];
      for (const file of g) {
        const got = tryReadLogFile(file);
        if (got.ok) files.push({ file: basename(file), entries: partEntries(file, got.lines) });
        else report.window.unreadable.push({ file, why: got.why });
      }
      read.set(g, files);
    }
    const firstGroup = groups[0];
    if (firstGroup !== undefined) report.logs.oldest = startOfGroup(firstGroup, read);
    for (const g of recent) {
      for (const s of buildTranscript((read.get(g) ?? []).flatMap((f) => f.entries))) {
        const m = s.summary.toJSON();
        const r: RecentSession = {
          file: basename(g[0] as string),
          sid: s.sid,
          start: s.start,
          name: s.header?.name ?? null,
          level: s.header?.level ?? null,
          calls: m.calls,
          refused: m.refused,
          tainted: s.items.some((i) => i.marker === "TAINT"),
          ...clientOf(
            (read.get(g) ?? []).flatMap((f) => f.entries),
            s.sid,
          ),
        };
        report.recent.push(r);
        page.push({ file: r.file, session: s, items: s.items });
      }
    }
    judge(
      report,
      judged.map((g) => read.get(g) ?? []),
      since,
      home,
    );
  } else if (listing.kind === "unreadable") {
    report.logs.exists = true;
    report.window.unreadable.push({ file: dir, why: listing.why });
  }
  if (o.html !== undefined) writeFileSync(o.html, statusPage(report, page));
  if (o.json) process.stdout.write(`${terminalSafeJson(report)}\n`);
  else
    process.stdout.write(
      `${formatStatus(report).join("\n")}\n${o.html !== undefined ? `\nwrote ${o.html}\n` : ""}`,
    );
  return report.window.unreadable.length > 0 || report.window.notJudged.length > 0 ? EXIT.finding : EXIT.ok;
}

/**
 * Each session under the policy it ran with, as enforce and strict would have run it: the relay's
 * own judgement through eval's rebuild (src/core/evaluation/session-rebuild.ts). Sessions whose
 * policy cannot be read now are left out and said.
 */
function judge(report: StatusReport, sessions: BenignSession[][], since: number, home: string): void {
  const w = report.window;
  const specOf = (source: string | null, cwd: string): string =>
    source === null || source === "default" || isAbsolute(source)
      ? (source ?? "default")
      : resolve(cwd, source);
  // Every policy named, loaded once here: one that cannot be read leaves its sessions out.
  const exclude = new Map<string, string>();
  const names = new Map<string, string | null>();
  const problems = new Map<string, { why: string; sids: Set<string> }>();
  const profile = { platform: thisPlatform(), home, cwd: home, env: {} };
  for (const files of sessions) {
    const h = headerOf(files);
    if (!h) continue;
    names.set(h.sid, h.name);
    const spec = specOf(h.policy?.source ?? null, h.cwd);
    let problem = problems.get(spec);
    if (problem === undefined && !problems.has(`ok:${spec}`)) {
      try {
        readPolicy(spec, profile);
        problems.set(`ok:${spec}`, { why: "", sids: new Set() });
      } catch (err) {
        problem = { why: (err as Error).message, sids: new Set() };
        problems.set(spec, problem);
      }
    }
    if (problem) {
      problem.sids.add(h.sid);
      exclude.set(h.sid, problem.why);
    }
  }
  for (const [spec, p] of problems)
    if (!spec.startsWith("ok:")) w.notJudged.push({ policy: spec, sessions: p.sids.size, why: p.why });

  const specs = new WeakMap<JudgeEnvironment, string>();
  const environment = benignEnvironment({ platform: thisPlatform(), dir: home });
  const cache = new Map<string, CompiledPolicy>();
  const policyFor = (env: JudgeEnvironment): CompiledPolicy => {
    const spec = specs.get(env) ?? "default";
    const key = JSON.stringify([spec, env.profile.platform, env.profile.home, env.profile.cwd]);
    let p = cache.get(key);
    if (!p) cache.set(key, (p = readPolicy(spec, env.profile)));
    return p;
  };
  const r = evaluateBenign(
    sessions.flat(),
    (env) => createSessionJudge(policyFor(env), env),
    (h) => {
      const env = environment(h);
      specs.set(env, specOf(h.policy, h.cwd));
      return env;
    },
    exclude,
    { countFrom: since, withParams: true },
  );
  const calls: WouldRefuse[] = r.flagged.map((f) => ({
    ...f,
    server: names.get(f.sid) ?? null,
    policy: specOf(policyOfSid(sessions, f.sid), cwdOfSid(sessions, f.sid)),
  }));
  w.sessions = r.sessions;
  w.calls = r.calls;
  w.enforce = r.enforce;
  w.strict = r.strict;
  w.refusedAt = { enforce: groupsAt("enforce", calls), strict: groupsAt("strict", calls) };
}

type Header = Extract<BenignSession["entries"][number], { record: unknown }>["record"] & { type: "header" };

function headerOf(files: readonly BenignSession[]): Header | undefined {
  for (const f of files)
    for (const e of f.entries) if ("record" in e && e.record.type === "header") return e.record as Header;
  return undefined;
}

function sessionHeader(sessions: BenignSession[][], sid: string): Header | undefined {
  for (const files of sessions) {
    const h = headerOf(files);
    if (h?.sid === sid) return h;
  }
  return undefined;
}
const policyOfSid = (sessions: BenignSession[][], sid: string): string | null =>
  sessionHeader(sessions, sid)?.policy?.source ?? null;
const cwdOfSid = (sessions: BenignSession[][], sid: string): string =>
  sessionHeader(sessions, sid)?.cwd ?? ".";

function clientStatus(project: string): ClientStatus[] {
  const { knownMains } = currentLauncher();
  return snapshot(machineFacts(), project, knownMains, isOffValue).map((f) => ({
    client: f.client,
    path: f.path,
    ...(f.error !== undefined ? { error: f.error } : {}),
    servers: f.servers.map((s) => {
      const argv = s.command !== undefined ? [s.command, ...(s.args ?? [])] : [];
      const r = argv.length > 0 ? recognise(argv, knownMains) : { wrapped: false as const };
      const opt = (flag: string) =>
        r.wrapped === true ? r.options.find((x) => x.flag === flag)?.value : undefined;
      const level = opt("--level");
      const policy = opt("--policy");
      const lock = opt("--lock");
      return {
        name: s.name,
        kind: s.kind,
        wrapped: s.wrapped,
        ...(s.foreign ? { foreign: true } : {}),
        ...(s.off ? { off: true } : {}),
        ...(level !== undefined ? { level } : {}),
        ...(policy !== undefined ? { policy } : {}),
        ...(lock !== undefined ? { lock } : {}),
      };
    }),
  }));
}

function sizeOf(file: string): number {
  try {
    return lstatSync(file).size;
  } catch {
    return 0;
  }
}

function modifiedSince(file: string, since: number): boolean {
  try {
    return statSync(file).mtimeMs >= since;
  } catch {
    return true; // unreadable: reading it says why
  }
}

function startOfGroup(group: string[], read: Map<string[], BenignSession[]>): string | null {
  const first = read.get(group)?.[0]?.entries.find((e) => "record" in e);
  if (first !== undefined && "record" in first) return first.record.t;
  const name = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})/.exec(basename(group[0] as string));
  return name ? `${name[1]}-${name[2]}-${name[3]}T${name[4]}:${name[5]}:00.000Z` : null;
}

/**
 * Who the client of session `sid` was, and how strict asks it, from its handshake record (and
 * its header: whether the relay offered a desktop dialog).
 */
function clientOf(
  entries: BenignSession["entries"],
  sid: string,
): { client: string | null; asks: AskChannel | null } {
  let dialog = false;
  for (const e of entries) {
    if (!("record" in e) || e.record.sid !== sid) continue;
    if (e.record.type === "header") dialog = offersDialog(e.record);
    if (e.record.type !== "event" || e.record.ev !== "handshake") continue;
    const info = e.record.data["clientInfo"];
    const name = isRecord(info) && typeof info["name"] === "string" ? info["name"] : null;
    const version = isRecord(info) && typeof info["version"] === "string" ? ` ${info["version"]}` : "";
    return { client: name === null ? null : `${name}${version}`, asks: askChannelOf(e.record.data, dialog) };
  }
  return { client: null, asks: null };
}
