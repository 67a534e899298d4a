// Sessions as one self-contained HTML page (decision 0096): no script, no network, no external
// asset, and a Content-Security-Policy that forbids them, so that even a mistake in escaping
// could neither run code nor fetch anything. Every string from a log goes through htmlText.
import { htmlText as h } from "../text/html-text.js";
import { formatLatency, formatOffset } from "./format.js";
import type { ReplayItem, ReplaySession } from "./replay-item.js";
import { formatTotals, type Totals } from "./totals.js";

/** One session on the page, with the lines of it that were chosen. */
export interface PageSession {
  file: string;
  session: ReplaySession;
  items: readonly ReplayItem[];
}

const STYLE = `
:root { color-scheme: light; --allow: #2e7d32; --notice: #b26a00; --ask: #8a5a00; --refused: #c62828;
  --taint: #8e24aa; --pin: #00838f; --muted: #666; font-family: system-ui, sans-serif; }
body { margin: 1.5rem; max-width: 80rem; line-height: 1.35; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; } h2 { font-size: 1.1rem; margin: 1.6rem 0 .2rem; }
.meta, .legend, .note { color: var(--muted); font-size: .9rem; margin: .2rem 0; }
.totals { font-weight: 600; }
code, .line, pre { font-family: ui-monospace, monospace; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: .5rem; margin: .3rem 0; }
ol.lines { list-style: none; padding: 0; margin: .4rem 0; }
.line { padding: .1rem .3rem; border-left: 4px solid transparent; overflow-wrap: anywhere; }
.line.allow { border-color: var(--allow); } .line.notice { border-color: var(--notice); background: #fff8e1; }
.line.ask { border-color: var(--ask); background: #fff3cd; }
.line.refused { border-color: var(--refused); background: #ffebee; }
.line.taint { border-color: var(--taint); background: #f3e5f5; } .line.pin { border-color: var(--pin); background: #e0f7fa; }
.line.stderr { color: var(--muted); } .line.trouble { font-weight: 600; }
.mark { display: inline-block; min-width: 2ch; font-weight: 700; }
details > summary { cursor: pointer; } dl { margin: .3rem 0 .3rem 1rem; } dt { font-weight: 600; }
dd { margin: 0 0 .3rem 1rem; }
svg.timeline { width: 100%; height: 46px; background: #fafafa; border: 1px solid #ddd; }
.dot.allow { fill: var(--allow); } .dot.notice { fill: var(--notice); } .dot.ask { fill: var(--ask); }
.dot.refused { fill: var(--refused); } .band { fill: #e1bee7; } .pinmark { fill: var(--pin); }
.taintmark { fill: var(--taint); }
table { border-collapse: collapse; margin: .4rem 0; } td, th { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left; vertical-align: top; }
`;

/** The page around `body` (already HTML): one file that needs nothing else. */
export function htmlPage(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    // Nothing is loaded and nothing runs: only the inline style below applies.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head><body>",
    body,
    "</body></html>",
    "",
  ].join("\n");
}

export const LEGEND =
  '<p class="legend">Calls: <span style="color:var(--allow)">● allowed</span> · ' +
  '<span style="color:var(--notice)">● notice (relayed; refused only at a stricter level)</span> · ' +
  '<span style="color:var(--ask)">● asked</span> · <span style="color:var(--refused)">● refused</span>. ' +
  '<span style="color:var(--taint)">▮ taint</span> from the first untrusted content on. ' +
  '<span style="color:var(--pin)">◆ pin</span> changes. Open a refused call for its effect, rule and remedy.</p>';

type CallClass = "allow" | "notice" | "ask" | "refused";

const idOf = (item: ReplayItem): string => JSON.stringify(item.id ?? null);

/** What each call came to, by its id, read from the decision lines that follow it. */
function callClasses(items: readonly ReplayItem[]): Map<ReplayItem, CallClass> {
  const out = new Map<ReplayItem, CallClass>();
  const latest = new Map<string, ReplayItem>();
  for (const item of items) {
    if (item.kind === "request" && item.dir === "c2s" && item.method === "tools/call") {
      latest.set(idOf(item), item);
      out.set(item, item.refused ? "refused" : "allow");
      continue;
    }
    const call = item.kind === "event" && item.id !== undefined ? latest.get(idOf(item)) : undefined;
    if (!call || out.get(call) === "refused") continue;
    if (item.refused) out.set(call, "refused");
    else if (item.marker === "ASK") out.set(call, "ask");
    else if (item.marker === "NOTED" || item.marker === "OBSERVED") out.set(call, "notice");
  }
  return out;
}

function lineClass(item: ReplayItem, calls: Map<ReplayItem, CallClass>): string {
  const call = calls.get(item);
  if (call !== undefined) return call;
  if (item.refused) return "refused";
  switch (item.marker) {
    case "ASK":
      return "ask";
    case "NOTED":
    case "OBSERVED":
      return "notice";
    case "TAINT":
      return "taint";
    case "PIN":
      return "pin";
    case "STDERR":
      return "stderr";
    case "GAP":
    case "INVALID":
    case "UNMATCHED":
    case "EARLY":
    case "UNASKED":
      return "trouble";
    default:
      return "";
  }
}

function lineText(item: ReplayItem): string {
  const parts = [
    item.dir === "c2s" ? "→" : item.dir === "s2c" ? "←" : "",
    item.marker ?? "",
    item.kind === "response"
      ? `${item.outcome ?? "result"} ← ${item.answers ?? "(no matching request)"}`
      : "",
    item.kind !== "response" && item.method !== undefined ? item.method : "",
    item.id !== undefined ? `id=${JSON.stringify(item.id)}` : "",
    item.tool !== undefined ? `tool=${item.tool}` : "",
    (item.effects ?? []).join(", ") + (item.moreEffects ? ` (+${item.moreEffects} more)` : ""),
    item.latencyMs !== undefined ? formatLatency(item.latencyMs) : "",
    item.kind === "invalid" ? `line ${item.line}` : "",
    item.detail ?? "",
  ];
  return parts.filter((p) => p !== "").join("  ");
}

/** The lines of a session; a refusal opens to its effect, rule and remedy. */
function linesHtml(items: readonly ReplayItem[], all: readonly ReplayItem[]): string {
  const calls = callClasses(all);
  const requests = new Map<string, ReplayItem>();
  const out: string[] = [];
  for (const item of items) {
    if (item.kind === "request" && item.dir === "c2s") requests.set(idOf(item), item);
    const cls = lineClass(item, calls);
    const time = `<span class="t">${h(formatOffset(item.offsetMs))}</span> `;
    const attrs = `class="line ${cls}" data-kind="${h(item.kind)}"${item.refused ? ' data-refused="true"' : ""}${item.tool !== undefined ? ` data-tool="${h(item.tool)}"` : ""}`;
    if (item.marker === "REFUSED" && item.kind === "event") {
      const call = item.id !== undefined ? requests.get(idOf(item)) : undefined;
      const effects = call?.effects ?? [];
      out.push(
        `<li ${attrs}><details class="refusal"><summary>${time}<span class="mark">!!</span> REFUSED ${h(item.tool ?? item.method ?? "")}${item.id !== undefined ? ` id=${h(JSON.stringify(item.id))}` : ""}</summary><dl>` +
          `<dt>effect</dt><dd>${effects.length > 0 ? effects.map((e) => `<code>${h(e)}</code>`).join("<br>") : "(not recorded)"}</dd>` +
          `<dt>rule</dt><dd><code>${h(item.rule ?? "(none)")}</code></dd>` +
          `<dt>why</dt><dd>${h(item.detail ?? "")}</dd>` +
          `<dt>remedy</dt><dd>${item.remedy !== undefined ? `<pre>${item.remedy.split("\n").map(h).join("\n")}</pre>` : "edit or remove the rule in the policy, or run this server at observe"}</dd>` +
          "</dl></details></li>",
      );
      continue;
    }
    out.push(`<li ${attrs}>${time}${h(lineText(item))}</li>`);
  }
  return `<ol class="lines">${out.join("\n")}</ol>`;
}

/** The session drawn along its time: calls by verdict, taint from where it rose, pin changes. */
export function timeline(items: readonly ReplayItem[]): string {
  const calls = callClasses(items);
  // Drawn: calls, taint and pins; the end is the last of them, not the server's exit.
  const timed = items.filter(
    (i) => i.offsetMs !== null && (calls.has(i) || i.marker === "TAINT" || i.marker === "PIN"),
  );
  const end = Math.max(1, ...timed.map((i) => i.offsetMs as number));
  const x = (i: ReplayItem): string => (10 + ((i.offsetMs as number) / end) * 980).toFixed(1);
  const parts: string[] = ['<line x1="10" y1="23" x2="990" y2="23" stroke="#bbb"/>'];
  const taint = timed.find((i) => i.marker === "TAINT");
  if (taint) {
    const from = Number(x(taint));
    parts.push(
      `<rect class="band" x="${from}" y="4" width="${(990 - from).toFixed(1)}" height="38"><title>tainted from ${h(formatOffset(taint.offsetMs))}</title></rect>`,
    );
  }
  for (const i of timed) {
    const cls = calls.get(i);
    if (cls !== undefined)
      parts.push(
        `<circle class="dot ${cls}" cx="${x(i)}" cy="23" r="${cls === "allow" ? 4 : 6}"><title>${h(`${formatOffset(i.offsetMs)} ${i.tool ?? ""} ${cls}`)}</title></circle>`,
      );
    else if (i.marker === "TAINT")
      parts.push(
        `<rect class="taintmark" x="${x(i)}" y="4" width="3" height="38"><title>${h(`taint: ${i.detail ?? ""}`)}</title></rect>`,
      );
    else if (i.marker === "PIN") {
      const cx = Number(x(i));
      parts.push(
        `<path class="pinmark" d="M${cx} 3 L${cx + 5} 9 L${cx} 15 L${cx - 5} 9 Z"><title>${h(`pin: ${i.tool ?? ""} ${i.detail ?? ""}`)}</title></path>`,
      );
    }
  }
  return `<svg class="timeline" viewBox="0 0 1000 46" preserveAspectRatio="none" role="img" aria-label="timeline">${parts.join("")}</svg>`;
}

export function sessionSection(p: PageSession): string {
  const s = p.session;
  const head = s.header;
  const m = s.summary.toJSON();
  const title = `${head?.name ?? head?.server.join(" ") ?? "session"} · ${s.start ?? "?"}`;
  return [
    `<section class="session" data-sid="${h(s.sid)}">`,
    `<h2>${h(title)}</h2>`,
    `<p class="meta">${h(p.file)} · session ${h(s.sid)}${head ? ` · level ${h(head.level)} (${h(head.from)}) · policy ${h(head.policy ?? "none")} · cwd ${h(head.cwd)}` : ""}</p>`,
    head ? `<p class="meta">server: <code>${h(head.server.join(" "))}</code></p>` : "",
    `<p class="meta">${m.calls} calls, ${m.refused} refused, ${m.failed} failed, ${m.unanswered} unanswered${m.client !== null ? ` · client ${h(m.client)}` : ""}${m.server !== null ? ` · server ${h(m.server)}` : ""}</p>`,
    timeline(s.items),
    linesHtml(p.items, s.items),
    "</section>",
  ].join("\n");
}

export function replayPage(sessions: readonly PageSession[], totals: Totals, o: { source: string }): string {
  const body = [
    "<header><h1>effectgate replay</h1>",
    `<p class="meta">from ${h(o.source)}</p>`,
    `<p class="totals">${h(formatTotals(totals).replace(/^== totals: /, ""))}</p>`,
    LEGEND,
    "</header>",
    sessions.length === 0 ? '<p class="note">No sessions to show.</p>' : "",
    ...sessions.map(sessionSection),
  ];
  return htmlPage("effectgate replay", body.join("\n"));
}
