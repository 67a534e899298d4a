// The page of `effectgate status --html`, whole: the servers table, the logs, what enforce and
// strict would have refused by rule with the ways out (the same as the text's), and the last
// sessions drawn as replay draws them.
import { describe, expect, it } from "vitest";
import { htmlPage, LEGEND, sessionSection, type PageSession } from "../../../src/core/replay/html.js";
import type { SessionSummary } from "../../../src/core/replay/summary.js";
import { statusPage } from "../../../src/core/status/html.js";
import { COPY, SHIPPED, emptyReport, flagged, fullReport, withCalls } from "../../helpers/status-report.js";

const HEADER = [
  "<header><h1>effectgate status</h1>",
  '<p class="meta">From the client configs and session logs on this machine; nothing was sent anywhere.</p>',
  LEGEND,
  "</header>",
  "<h2>Servers in client configs</h2>",
];
const HOLD = "They hold everything the agents read and sent, secrets included.</p>";
const NO_SESSIONS = '<p class="note">No sessions recorded yet.</p>';
const STEPS = `<pre>cp ${SHIPPED} ${COPY}\neffectgate install --policy ${COPY}</pre>`;
const SWITCH = (level: string) => `<p>To switch: <code>effectgate install --level ${level}</code></p>`;
const TABLE_HEAD =
  "<table><tr><th>client</th><th>server</th><th>state</th><th>level</th><th>policy</th><th>lock</th></tr>";
const page = (body: string[]) => htmlPage("effectgate status", body.join("\n"));

describe("statusPage", () => {
  it("says plainly that there is nothing yet", () => {
    expect(statusPage(emptyReport(), [])).toBe(
      page([
        ...HEADER,
        '<p class="note">No client config found.</p>',
        "<h2>Session logs</h2>",
        `<p><code>/home/u/.effectgate/sessions</code>: none yet. ${HOLD}`,
        '<p class="meta">Kept for ever (the default).</p>',
        "<h2>Last 7 days, judged again (0 sessions, 0 calls)</h2>",
        '<section class="level" data-level="enforce"><h2>At enforce: 0 calls would have been refused</h2><p class="meta">no calls</p></section>',
        '<section class="level" data-level="strict"><h2>At strict: 0 calls would have been refused or asked about</h2><p class="meta">no calls</p></section>',
        "<h2>Last sessions</h2>",
        NO_SESSIONS,
      ]),
    );
  });

  it("draws every kind of server, the logs and the calls flagged at each level, with the ways out", () => {
    const row = (cls: string, server: string, state: string, level = "", policy = "", lock = "") =>
      `<tr class="line ${cls}"><td>claude-code</td><td>${server}</td><td>${state}</td><td>${level}</td><td>${policy}</td><td>${lock}</td></tr>`;
    const servers =
      TABLE_HEAD +
      row("allow", "fs", "wrapped", "enforce", "/p.yaml", "/l.json") +
      row("allow", "git", "wrapped", "observe", "default", "none") +
      row("refused", "off", "wrapped, EFFECTGATE_OFF set", "strict", "default", "none") +
      row("refused", "web", "remote: not guarded") +
      row("refused", "bad", "a declaration effectgate cannot read") +
      row("refused", "other", "a launcher that is not this effectgate: unguarded") +
      row("refused", "bare", "NOT wrapped") +
      '<tr><td>cursor</td><td colspan="5"><code>/home/u/.cursor/mcp.json</code> (no servers)</td></tr>' +
      '<tr><td>vscode</td><td colspan="5"><code>/home/u/settings.json</code> not JSON</td></tr>' +
      "</table>";
    const sshCalls = [0, 1, 2, 3, 4, 5]
      .map(
        (i) =>
          `<li class="line refused" data-refused="true">2026-12-01 10:0${i} fs read_file <code>read /home/u/.ssh/id_rsa</code> — a denied path</li>`,
      )
      .join("");
    const ssh =
      '<details class="rule" open><summary><code>paths.deny ~/.ssh/**</code>: 6 calls (policy default)</summary>' +
      `<ol class="lines">${sshCalls}</ol>` +
      `<p>To allow it: remove &quot;~/.ssh/**&quot; from paths.deny in your copy of the policy, ${COPY} (or move it to paths.confirm, to be asked instead)</p>` +
      STEPS +
      "<p>To see why:</p><pre>effectgate check --tool &#39;read_file&#39; --args &#39;{&quot;path&quot;:&quot;/home/u/.ssh/id_rsa&quot;}&#39;</pre>" +
      "</details>";
    const exec =
      '<details class="rule" open><summary><code>exec.action curl</code>: 1 call (policy /p.yaml)</summary>' +
      '<ol class="lines"><li class="line refused" data-refused="true">2026-12-01 11:00 (no name) prompts/get <code></code> — a blocked command (tainted)</li></ol>' +
      "<p>To allow it: set exec.action to a milder verdict, or list fewer tools in exec.tools, in /p.yaml</p>" +
      "</details>";
    const env =
      '<details class="rule" open><summary><code>paths.confirm **/.env</code>: 1 call (policy default)</summary>' +
      '<ol class="lines"><li class="line refused" data-refused="true">2026-12-01 12:00 fs write_file <code>write /w/.env</code> — a confirmed path</li></ol>' +
      `<p>To allow it: remove &quot;**/.env&quot; from paths.confirm in your copy of the policy, ${COPY}</p>` +
      STEPS +
      "</details>";
    expect(statusPage(fullReport(), [])).toBe(
      page([
        ...HEADER,
        servers,
        "<h2>Session logs</h2>",
        `<p><code>/home/u/.effectgate/sessions</code>: 3 sessions, 2.0 KiB, the oldest from 2026-11-02 08:05. ${HOLD}`,
        '<p class="meta">Sessions older than 30 days are deleted when a relay starts (EFFECTGATE_KEEP_DAYS).</p>',
        "<h2>Last 7 days, judged again (3 sessions, 40 calls)</h2>",
        '<p class="line trouble">NOT JUDGED: 2 sessions under /gone.yaml: it cannot be read</p>',
        '<p class="line trouble">UNREADABLE: /s/x.jsonl: not JSON</p>',
        '<section class="level" data-level="enforce"><h2>At enforce: 7 calls would have been refused</h2>' +
          '<p class="meta">3.0 per week of active time (7 of 40 calls)</p>' +
          `${ssh}\n${exec}${SWITCH("enforce")}</section>`,
        '<section class="level" data-level="strict"><h2>At strict: 8 calls would have been refused or asked about</h2>' +
          '<p class="meta">too little active time to say</p>' +
          `<p>The calls refused at enforce, and:</p>${env}${SWITCH("strict")}</section>`,
        "<h2>Last sessions</h2>",
        NO_SESSIONS,
      ]),
    );
  });

  it("counts one call in the singular, leaves out an unknown oldest, and draws the last sessions", () => {
    const r = withCalls(emptyReport(), [
      flagged({ policy: "/p.yaml", server: "s", tool: "t", effect: "e", reason: "r", tainted: false }),
    ]);
    r.clients = [{ client: "a<b", path: "/c&d", servers: [] }];
    r.logs = { ...r.logs, exists: true, sessions: 1, bytes: 5, oldest: null, keepDays: 2, keepFrom: "k" };
    const recent: PageSession = {
      file: "a.jsonl",
      items: [],
      session: {
        sid: "a",
        start: null,
        header: null,
        items: [],
        summary: {
          toJSON: () => ({ calls: 0, refused: 0, failed: 0, unanswered: 0, client: null, server: null }),
        } as unknown as SessionSummary,
      },
    };
    expect(statusPage(r, [recent])).toBe(
      page([
        ...HEADER,
        TABLE_HEAD +
          '<tr><td>a&lt;b</td><td colspan="5"><code>/c&amp;d</code> (no servers)</td></tr></table>',
        "<h2>Session logs</h2>",
        `<p><code>/home/u/.effectgate/sessions</code>: 1 session, 5 B. ${HOLD}`,
        '<p class="meta">Sessions older than 2 days are deleted when a relay starts (k).</p>',
        "<h2>Last 7 days, judged again (0 sessions, 0 calls)</h2>",
        '<section class="level" data-level="enforce"><h2>At enforce: 1 call would have been refused</h2><p class="meta">no calls</p>' +
          '<details class="rule" open><summary><code>paths.deny ~/.ssh/**</code>: 1 call (policy /p.yaml)</summary>' +
          '<ol class="lines"><li class="line refused" data-refused="true">2026-12-01 10:00 s t <code>e</code> — r</li></ol>' +
          "<p>To allow it: remove &quot;~/.ssh/**&quot; from paths.deny in /p.yaml (or move it to paths.confirm, to be asked instead)</p>" +
          `</details>${SWITCH("enforce")}</section>`,
        '<section class="level" data-level="strict"><h2>At strict: 1 call would have been refused or asked about</h2><p class="meta">no calls</p>' +
          `<p>The calls refused at enforce, and:</p>${SWITCH("strict")}</section>`,
        "<h2>Last sessions</h2>",
        "",
        sessionSection(recent),
      ]),
    );
  });

  it("at strict alone, says nothing of enforce's calls and gives its rate", () => {
    const r = withCalls(emptyReport(), [
      flagged({ rule: "r", policy: "/p.yaml", outcomes: { enforce: "forward-noted", strict: "ask" } }),
    ]);
    r.window.strict = { ok: true, perWeek: 0.5, blocks: 1, calls: 3 };
    const strict = statusPage(r, [])
      .split("\n")
      .find((l) => l.includes('data-level="strict"'));
    expect(strict).toBe(
      '<section class="level" data-level="strict"><h2>At strict: 1 call would have been refused or asked about</h2>' +
        '<p class="meta">0.5 per week of active time (1 of 3 calls)</p>' +
        '<details class="rule" open><summary><code>r</code>: 1 call (policy /p.yaml)</summary>' +
        '<ol class="lines"><li class="line refused" data-refused="true">2026-12-01 10:00 fs read_file <code>read /home/u/.ssh/id_rsa</code> — a denied path</li></ol>' +
        "<p>To allow it: edit the rule &quot;r&quot; in /p.yaml</p>" +
        `</details>${SWITCH("strict")}</section>`,
    );
  });
});

describe("the keeping of logs", () => {
  it("says one day in the singular, as the text does", () => {
    const r = emptyReport();
    r.logs = { ...r.logs, keepDays: 1, keepFrom: "EFFECTGATE_KEEP_DAYS" };
    const html = statusPage(r, []);
    expect(html).toContain(
      "Sessions older than 1 day are deleted when a relay starts (EFFECTGATE_KEEP_DAYS).",
    );
    expect(html).not.toContain("1 days");
  });
});
