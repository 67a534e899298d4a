// `effectgate status` as data and as text: the wrapped servers of each client, the session logs,
// the last sessions, and what enforce and strict would have refused lately, grouped by rule with
// the ways out. The command gathers the facts (files, logs, the relay's own re-judgement);
// everything here is pure.
import type { Flagged } from "../evaluation/benign.js";
import type { Rate } from "../evaluation/active-time.js";
import { escapeForTerminal as esc } from "../replay/escape.js";
import { exceptionAdvice, policyCopy, switchCommand, whyCommand } from "./advice.js";
import type { AskChannel } from "../gate/ask-channel.js";

export interface ServerStatus {
  name: string;
  kind: "stdio" | "remote" | "invalid";
  /** Starts through this effectgate. */
  wrapped: boolean;
  /** Shaped like a wrapper, but not this effectgate. */
  foreign?: boolean;
  /** Its env turns every check off. */
  off?: boolean;
  /** From the wrapper's argv; undefined when not given there. */
  level?: string;
  policy?: string;
  lock?: string;
}

export interface ClientStatus {
  client: string;
  path: string;
  error?: string;
  servers: ServerStatus[];
}

export interface RecentSession {
  file: string;
  sid: string;
  start: string | null;
  name: string | null;
  level: string | null;
  calls: number;
  refused: number;
  tainted: boolean;
  /** The client's `clientInfo` name and version, as its handshake gave them; null: not said. */
  client: string | null;
  /** How strict asks this client (src/core/gate/ask-channel.ts); null: no handshake was logged. */
  asks: AskChannel | null;
}

/** A call a level would have refused (or, at strict, asked about), with where it came from. */
export interface WouldRefuse extends Flagged {
  server: string | null;
  policy: string;
}

export interface RuleGroup {
  rule: string;
  policy: string;
  calls: WouldRefuse[];
}

export interface StatusReport {
  clients: ClientStatus[];
  logs: {
    dir: string;
    exists: boolean;
    sessions: number;
    bytes: number;
    oldest: string | null;
    /** Sessions older than this many days are deleted at relay start-up; null: kept for ever. */
    keepDays: number | null;
    keepFrom: string;
  };
  recent: RecentSession[];
  window: {
    days: number;
    since: string;
    sessions: number;
    calls: number;
    enforce: Rate;
    strict: Rate;
    refusedAt: { enforce: RuleGroup[]; strict: RuleGroup[] };
    /** Sessions that could not be judged again, and why (their policy file is gone, …). */
    notJudged: { policy: string; sessions: number; why: string }[];
    unreadable: { file: string; why: string }[];
  };
  /** Where the shipped policy is, for the copy an exception starts from; and the user's home. */
  shippedPolicy: string;
  home: string;
}

/** How each channel reads in the last sessions (docs/asking.md). */
const ASKS: Record<AskChannel, string> = {
  elicitation: "in the chat (elicitation)",
  input_required: "in the chat (input_required)",
  dialog: "in a desktop dialog",
  "out of band": "out of band (effectgate pending / allow)",
};

/** Flagged calls that `level` would have refused (at strict, asked about too), grouped by rule. */
export function groupsAt(level: "enforce" | "strict", calls: readonly WouldRefuse[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const c of calls) {
    const outcome = c.outcomes[level];
    if (outcome !== "refuse" && outcome !== "ask") continue;
    const rule = c.rule ?? "(no rule)";
    const key = `${c.policy}\u0000${rule}`;
    const g = groups.get(key) ?? { rule, policy: c.policy, calls: [] };
    g.calls.push(c);
    groups.set(key, g);
  }
  return [...groups.values()].sort(
    (a, b) => b.calls.length - a.calls.length || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
}

/** `1 session`, `2 sessions`: the count and its noun, in the text and on the page alike. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** `2026-11-30 10:12` from an ISO time (UTC, as logs keep it). */
export const shortTime = (iso: string | null): string =>
  iso === null ? "?" : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** Flagged calls shown per rule; the rest are counted. */
const CALLS_SHOWN = 5;

function serverLine(s: ServerStatus): string {
  const name = esc(s.name);
  if (s.kind === "remote") return `${name}  remote: NOT GUARDED (effectgate guards stdio servers only)`;
  if (s.kind === "invalid") return `${name}  a declaration effectgate cannot read`;
  if (s.foreign)
    return `${name}  wrapped by a launcher that is NOT this effectgate: unguarded (effectgate install)`;
  if (!s.wrapped) return `${name}  NOT WRAPPED: its calls are not judged (effectgate install)`;
  const facts = [
    `level ${esc(s.level ?? "observe")}${s.level === undefined ? " (the policy's mode, else observe)" : ""}`,
    `policy ${esc(s.policy ?? "default")}`,
    `lock ${esc(s.lock ?? "none")}`,
  ];
  return `${name}  ${facts.join("  ")}${s.off ? "  EFFECTGATE_OFF set: no checks" : ""}`;
}

export function formatStatus(r: StatusReport): string[] {
  const out: string[] = [];
  out.push("effectgate status: from the client configs and session logs on this machine (offline)");
  out.push("", "Servers in client configs");
  if (r.clients.length === 0) out.push("  no client config found (effectgate install lists where it looks)");
  for (const c of r.clients) {
    out.push(`  ${esc(c.client)}  ${esc(c.path)}${c.error !== undefined ? `: ${esc(c.error)}` : ""}`);
    if (c.error === undefined && c.servers.length === 0) out.push("    (no servers)");
    for (const s of c.servers) out.push(`    ${serverLine(s)}`);
  }
  const l = r.logs;
  out.push("", `Session logs  ${esc(l.dir)}`);
  if (!l.exists) out.push("  none yet: a wrapped server's first session creates the folder");
  else
    out.push(
      `  ${plural(l.sessions, "session")}, ${formatBytes(l.bytes)}${l.oldest !== null ? `, the oldest from ${shortTime(l.oldest)}` : ""}. They hold everything the agents read and sent, secrets included.`,
    );
  out.push(
    l.keepDays === null
      ? `  Kept for ever (${l.keepFrom}).`
      : `  Sessions older than ${plural(l.keepDays, "day")} are deleted when a relay starts (${l.keepFrom}).`,
  );
  if (r.recent.length > 0) {
    out.push("", "Last sessions");
    for (const s of r.recent)
      out.push(
        `  ${shortTime(s.start)}  ${esc(s.name ?? "(no name)")}  ${esc(s.level ?? "?")}  ${plural(s.calls, "call")}, ${s.refused} refused${s.tainted ? ", tainted" : ""}  ${esc(s.file)}`,
        ...(s.asks === null
          ? []
          : [`    client ${esc(s.client ?? "(no name)")}: strict asks ${ASKS[s.asks]}`]),
      );
  }
  out.push(...formatWindow(r));
  return out;
}

/**
 * The rule groups said at each level: at enforce every refusal; at strict only what enforce
 * would not already refuse, so that nothing is said twice.
 */
export function levelGroups(r: StatusReport): {
  enforce: RuleGroup[];
  strictMore: RuleGroup[];
  strictTotal: number;
  enforceTotal: number;
} {
  const w = r.window;
  const count = (gs: readonly RuleGroup[]) => gs.reduce((n, g) => n + g.calls.length, 0);
  const strictMore = w.refusedAt.strict
    .map((g) => ({ ...g, calls: g.calls.filter((c) => c.outcomes.enforce !== "refuse") }))
    .filter((g) => g.calls.length > 0);
  return {
    enforce: w.refusedAt.enforce,
    strictMore,
    enforceTotal: count(w.refusedAt.enforce),
    strictTotal: count(w.refusedAt.strict),
  };
}

function formatWindow(r: StatusReport): string[] {
  const w = r.window;
  const out: string[] = [
    "",
    `Last ${w.days} days, judged again as enforce and strict would have run them (${plural(w.sessions, "session")}, ${plural(w.calls, "call")})`,
  ];
  for (const n of w.notJudged)
    out.push(`  NOT JUDGED: ${plural(n.sessions, "session")} under policy ${esc(n.policy)}: ${esc(n.why)}`);
  for (const u of w.unreadable) out.push(`  UNREADABLE: ${esc(u.file)}: ${esc(u.why)}`);
  const g = levelGroups(r);
  const copy = policyCopy(r.shippedPolicy, r.home);
  const rate = (level: "enforce" | "strict") => {
    const x = w[level];
    return x.ok ? `; ${x.perWeek.toFixed(1)} per week of active time` : "";
  };
  if (g.enforceTotal === 0) out.push("  At enforce: nothing would have been refused.");
  else {
    out.push(`  At enforce, ${plural(g.enforceTotal, "call")} would have been refused${rate("enforce")}:`);
    for (const group of g.enforce) out.push(...formatGroup(group, copy.file));
    out.push(
      `    To switch: ${switchCommand("enforce")}   (every wrapped server; the client starts it anew)`,
    );
  }
  if (g.strictTotal === 0) out.push("  At strict: nothing would have been refused or asked about.");
  else {
    const more = g.strictMore.reduce((n, x) => n + x.calls.length, 0);
    out.push(
      `  At strict, ${plural(g.strictTotal, "call")} would have been refused or asked about${rate("strict")}${g.enforceTotal > 0 ? `: those above${more > 0 ? ", and" : ""}` : ":"}`,
    );
    for (const group of g.strictMore) out.push(...formatGroup(group, copy.file));
    out.push(`    To switch: ${switchCommand("strict")}`);
  }
  const usesDefault = [...g.enforce, ...g.strictMore].some((x) => x.policy === "default");
  if (usesDefault)
    out.push("  To make your copy of the policy and run with it:", ...copy.steps.map((s) => `    ${esc(s)}`));
  return out;
}

function formatGroup(g: RuleGroup, copy: string): string[] {
  const out = [`    ${esc(g.rule)}  ${plural(g.calls.length, "call")}  (policy ${esc(g.policy)})`];
  for (const c of g.calls.slice(0, CALLS_SHOWN))
    out.push(
      `      ${shortTime(c.t)}  ${esc(c.server ?? "(no name)")}  ${esc(c.tool ?? c.method)}  ${esc(c.effect ?? c.reason)}${c.tainted ? "  (tainted)" : ""}`,
    );
  if (g.calls.length > CALLS_SHOWN) out.push(`      … and ${g.calls.length - CALLS_SHOWN} more`);
  out.push(`      To allow it: ${esc(exceptionAdvice(g.rule, g.policy, copy))}`);
  const first = g.calls[0];
  if (first?.params !== undefined)
    out.push(
      `      To see why: ${esc(whyCommand(first.tool, first.method, first.params, g.policy, first.tainted))}`,
    );
  return out;
}
