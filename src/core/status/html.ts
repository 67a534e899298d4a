// `effectgate status --html`: the report as one self-contained page (the same rules as replay's,
// src/core/replay/html.ts): the servers, the logs, what enforce and strict would have refused by
// rule with the ways out, and the last sessions drawn.
import { htmlPage, LEGEND, sessionSection, type PageSession } from "../replay/html.js";
import { htmlText as h } from "../text/html-text.js";
import { exceptionAdvice, policyCopy, switchCommand, whyCommand } from "./advice.js";
import { formatBytes, levelGroups, plural, shortTime, type RuleGroup, type StatusReport } from "./report.js";

function serversHtml(r: StatusReport): string {
  if (r.clients.length === 0) return '<p class="note">No client config found.</p>';
  const rows = r.clients.flatMap((c) =>
    c.servers.length === 0
      ? [
          `<tr><td>${h(c.client)}</td><td colspan="5"><code>${h(c.path)}</code> ${h(c.error ?? "(no servers)")}</td></tr>`,
        ]
      : c.servers.map((s) => {
          const state =
            s.kind === "invalid"
              ? "a declaration effectgate cannot read"
              : s.kind === "remote"
                ? "remote: not guarded"
                : s.foreign
                  ? "a launcher that is not this effectgate: unguarded"
                  : s.wrapped
                    ? s.off
                      ? "wrapped, EFFECTGATE_OFF set"
                      : "wrapped"
                    : "NOT wrapped";
          const cls = s.wrapped && !s.off ? "allow" : "refused";
          return `<tr class="line ${cls}"><td>${h(c.client)}</td><td>${h(s.name)}</td><td>${h(state)}</td><td>${h(s.wrapped ? (s.level ?? "observe") : "")}</td><td>${h(s.wrapped ? (s.policy ?? "default") : "")}</td><td>${h(s.wrapped ? (s.lock ?? "none") : "")}</td></tr>`;
        }),
  );
  return `<table><tr><th>client</th><th>server</th><th>state</th><th>level</th><th>policy</th><th>lock</th></tr>${rows.join("")}</table>`;
}

function groupHtml(g: RuleGroup, r: StatusReport): string {
  const copy = policyCopy(r.shippedPolicy, r.home);
  const what = exceptionAdvice(g.rule, g.policy, copy.file);
  const steps = g.policy === "default" ? copy.steps : [];
  const first = g.calls[0];
  const why =
    first?.params !== undefined
      ? whyCommand(first.tool, first.method, first.params, g.policy, first.tainted)
      : undefined;
  const calls = g.calls
    .map(
      (c) =>
        `<li class="line refused" data-refused="true">${h(shortTime(c.t))} ${h(c.server ?? "(no name)")} ${h(c.tool ?? c.method)} <code>${h(c.effect ?? "")}</code> — ${h(c.reason)}${c.tainted ? " (tainted)" : ""}</li>`,
    )
    .join("");
  return (
    `<details class="rule" open><summary><code>${h(g.rule)}</code>: ${g.calls.length} ${g.calls.length === 1 ? "call" : "calls"} (policy ${h(g.policy)})</summary>` +
    `<ol class="lines">${calls}</ol>` +
    `<p>To allow it: ${h(what ?? "")}</p>${steps.length > 0 ? `<pre>${steps.map(h).join("\n")}</pre>` : ""}` +
    (why !== undefined ? `<p>To see why:</p><pre>${h(why)}</pre>` : "") +
    "</details>"
  );
}

export function statusPage(r: StatusReport, recent: readonly PageSession[]): string {
  const w = r.window;
  const l = r.logs;
  const g = levelGroups(r);
  const levels = (["enforce", "strict"] as const).map((level) => {
    const groups = level === "enforce" ? g.enforce : g.strictMore;
    const total = level === "enforce" ? g.enforceTotal : g.strictTotal;
    const rate = w[level];
    const note = level === "strict" && g.enforceTotal > 0 ? "<p>The calls refused at enforce, and:</p>" : "";
    return (
      `<section class="level" data-level="${level}"><h2>At ${level}: ${total} ${total === 1 ? "call" : "calls"} would have been ${level === "strict" ? "refused or asked about" : "refused"}</h2>` +
      `<p class="meta">${h(rate.ok ? `${rate.perWeek.toFixed(1)} per week of active time (${rate.blocks} of ${rate.calls} calls)` : rate.why)}</p>` +
      note +
      groups.map((x) => groupHtml(x, r)).join("\n") +
      (total > 0 ? `<p>To switch: <code>${h(switchCommand(level))}</code></p>` : "") +
      "</section>"
    );
  });
  const body = [
    "<header><h1>effectgate status</h1>",
    '<p class="meta">From the client configs and session logs on this machine; nothing was sent anywhere.</p>',
    LEGEND,
    "</header>",
    "<h2>Servers in client configs</h2>",
    serversHtml(r),
    "<h2>Session logs</h2>",
    `<p><code>${h(l.dir)}</code>: ${l.exists ? `${plural(l.sessions, "session")}, ${h(formatBytes(l.bytes))}${l.oldest !== null ? `, the oldest from ${h(shortTime(l.oldest))}` : ""}` : "none yet"}. They hold everything the agents read and sent, secrets included.</p>`,
    `<p class="meta">${h(l.keepDays === null ? `Kept for ever (${l.keepFrom}).` : `Sessions older than ${plural(l.keepDays, "day")} are deleted when a relay starts (${l.keepFrom}).`)}</p>`,
    `<h2>Last ${w.days} days, judged again (${plural(w.sessions, "session")}, ${plural(w.calls, "call")})</h2>`,
    ...w.notJudged.map(
      (n) =>
        `<p class="line trouble">NOT JUDGED: ${plural(n.sessions, "session")} under ${h(n.policy)}: ${h(n.why)}</p>`,
    ),
    ...w.unreadable.map((u) => `<p class="line trouble">UNREADABLE: ${h(u.file)}: ${h(u.why)}</p>`),
    ...levels,
    "<h2>Last sessions</h2>",
    recent.length === 0 ? '<p class="note">No sessions recorded yet.</p>' : "",
    ...recent.map(sessionSection),
  ];
  return htmlPage("effectgate status", body.join("\n"));
}
