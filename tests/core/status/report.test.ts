// The text of `effectgate status`, line for line: the servers of each client, the session logs,
// the last sessions, and what enforce and strict would have refused, grouped by rule with the
// ways out; and the small formatters it shares with the page.
import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatStatus,
  groupsAt,
  levelGroups,
  plural,
  shortTime,
  type StatusReport,
} from "../../../src/core/status/report.js";
import {
  COPY,
  FULL_CALLS,
  SHIPPED,
  emptyReport,
  flagged,
  fullReport,
  minutes,
  withCalls,
} from "../../helpers/status-report.js";

const HEAD = [
  "effectgate status: from the client configs and session logs on this machine (offline)",
  "",
  "Servers in client configs",
];
const WINDOW_HEAD = (sessions: string, calls: string) => [
  "",
  `Last 7 days, judged again as enforce and strict would have run them (${sessions}, ${calls})`,
];
const COPY_STEPS = [
  "  To make your copy of the policy and run with it:",
  `    cp ${SHIPPED} ${COPY}`,
  `    effectgate install --policy ${COPY}`,
];
const NOTHING_AT_ENFORCE = "  At enforce: nothing would have been refused.";
const NOTHING_AT_STRICT = "  At strict: nothing would have been refused or asked about.";
const SWITCH_ENFORCE =
  "    To switch: effectgate install --level enforce   (every wrapped server; the client starts it anew)";
const SWITCH_STRICT = "    To switch: effectgate install --level strict";
const ENV_GROUP = [
  "    paths.confirm **/.env  1 call  (policy default)",
  "      2026-12-01 12:00  fs  write_file  write /w/.env",
  `      To allow it: remove "**/.env" from paths.confirm in your copy of the policy, ${COPY}`,
];
const ENV_CALL = flagged({
  t: "2026-12-01T12:00:00.000Z",
  rule: "paths.confirm **/.env",
  tool: "write_file",
  verdict: "confirm",
  effect: "write /w/.env",
  outcomes: { enforce: "forward-noted", strict: "ask" },
});

/** The lines of the window part, from its heading on. */
const windowOf = (r: StatusReport): string[] => {
  const out = formatStatus(r);
  return out.slice(out.findIndex((l) => l.startsWith("Last 7 days")) - 1);
};

describe("formatStatus", () => {
  it("says plainly that there is nothing yet", () => {
    expect(formatStatus(emptyReport())).toEqual([
      ...HEAD,
      "  no client config found (effectgate install lists where it looks)",
      "",
      "Session logs  /home/u/.effectgate/sessions",
      "  none yet: a wrapped server's first session creates the folder",
      "  Kept for ever (the default).",
      ...WINDOW_HEAD("0 sessions", "0 calls"),
      NOTHING_AT_ENFORCE,
      NOTHING_AT_STRICT,
    ]);
  });

  it("says every kind of server, log, session and flagged call, with the ways out", () => {
    const ssh = [0, 1, 2, 3, 4].map(
      (i) => `      2026-12-01 10:0${i}  fs  read_file  read /home/u/.ssh/id_rsa`,
    );
    expect(formatStatus(fullReport())).toEqual([
      ...HEAD,
      "  claude-code  /home/u/.claude.json",
      "    fs  level enforce  policy /p.yaml  lock /l.json",
      "    git  level observe (the policy's mode, else observe)  policy default  lock none",
      "    off  level strict  policy default  lock none  EFFECTGATE_OFF set: no checks",
      "    web  remote: NOT GUARDED (effectgate guards stdio servers only)",
      "    bad  a declaration effectgate cannot read",
      "    other  wrapped by a launcher that is NOT this effectgate: unguarded (effectgate install)",
      "    bare  NOT WRAPPED: its calls are not judged (effectgate install)",
      "  cursor  /home/u/.cursor/mcp.json",
      "    (no servers)",
      "  vscode  /home/u/settings.json: not JSON",
      "",
      "Session logs  /home/u/.effectgate/sessions",
      "  3 sessions, 2.0 KiB, the oldest from 2026-11-02 08:05. They hold everything the agents read and sent, secrets included.",
      "  Sessions older than 30 days are deleted when a relay starts (EFFECTGATE_KEEP_DAYS).",
      "",
      "Last sessions",
      "  2026-12-01 09:30  fs  enforce  12 calls, 2 refused, tainted  a.jsonl",
      "    client claude-code 1.2: strict asks in a desktop dialog",
      "  ?  (no name)  ?  1 call, 0 refused  b.jsonl",
      "    client (no name): strict asks in the chat (elicitation)",
      "  2026-12-02 00:00  c  strict  0 calls, 0 refused  c.jsonl",
      "    client x: strict asks in the chat (input_required)",
      "  2026-12-02 01:00  d  observe  2 calls, 1 refused  d.jsonl",
      "    client y: strict asks out of band (effectgate pending / allow)",
      "  2026-12-02 02:00  e  observe  3 calls, 0 refused  e.jsonl",
      ...WINDOW_HEAD("3 sessions", "40 calls"),
      "  NOT JUDGED: 2 sessions under policy /gone.yaml: it cannot be read",
      "  UNREADABLE: /s/x.jsonl: not JSON",
      "  At enforce, 7 calls would have been refused; 3.0 per week of active time:",
      "    paths.deny ~/.ssh/**  6 calls  (policy default)",
      ...ssh,
      "      … and 1 more",
      `      To allow it: remove "~/.ssh/**" from paths.deny in your copy of the policy, ${COPY} (or move it to paths.confirm, to be asked instead)`,
      `      To see why: effectgate check --tool 'read_file' --args '{"path":"/home/u/.ssh/id_rsa"}'`,
      "    exec.action curl  1 call  (policy /p.yaml)",
      "      2026-12-01 11:00  (no name)  prompts/get  a blocked command  (tainted)",
      "      To allow it: set exec.action to a milder verdict, or list fewer tools in exec.tools, in /p.yaml",
      SWITCH_ENFORCE,
      "  At strict, 8 calls would have been refused or asked about: those above, and",
      ...ENV_GROUP,
      SWITCH_STRICT,
      ...COPY_STEPS,
    ]);
  });

  it("writes hidden characters of a config, a server or a session as escapes", () => {
    const r = emptyReport();
    r.clients = [{ client: "c\u001b[2J", path: "/p\u202e", error: "bad\u0007", servers: [] }];
    expect(formatStatus(r).slice(3, 4)).toEqual(["  c\\x1b[2J  /p\\u202e: bad\\x07"]);
  });

  it("counts one session and one day in the singular, and leaves out an unknown oldest", () => {
    const r = emptyReport();
    r.logs = { ...r.logs, exists: true, sessions: 1, bytes: 1023, oldest: null, keepDays: 1, keepFrom: "k" };
    expect(formatStatus(r).slice(4, 8)).toEqual([
      "",
      "Session logs  /home/u/.effectgate/sessions",
      "  1 session, 1023 B. They hold everything the agents read and sent, secrets included.",
      "  Sessions older than 1 day are deleted when a relay starts (k).",
    ]);
  });

  it("at strict alone, says what it would ask about, with its rate and the copy to make", () => {
    const r = withCalls(emptyReport(), [ENV_CALL]);
    r.window.strict = { ok: true, perWeek: 1.25, blocks: 1, calls: 9 };
    expect(windowOf(r)).toEqual([
      ...WINDOW_HEAD("0 sessions", "0 calls"),
      NOTHING_AT_ENFORCE,
      "  At strict, 1 call would have been refused or asked about; 1.3 per week of active time:",
      ...ENV_GROUP,
      SWITCH_STRICT,
      ...COPY_STEPS,
    ]);
  });

  it("shows five calls of a rule whole, and at strict only points back when enforce said it all", () => {
    const calls = minutes(5, { policy: "/p.yaml", server: "s", tool: "t", effect: undefined, reason: "r" });
    expect(windowOf(withCalls(emptyReport(), calls))).toEqual([
      ...WINDOW_HEAD("0 sessions", "0 calls"),
      "  At enforce, 5 calls would have been refused:",
      "    paths.deny ~/.ssh/**  5 calls  (policy /p.yaml)",
      ...[0, 1, 2, 3, 4].map((i) => `      2026-12-01 10:0${i}  s  t  r`),
      '      To allow it: remove "~/.ssh/**" from paths.deny in /p.yaml (or move it to paths.confirm, to be asked instead)',
      SWITCH_ENFORCE,
      "  At strict, 5 calls would have been refused or asked about: those above",
      SWITCH_STRICT,
    ]);
  });
});

describe("levelGroups", () => {
  it("keeps at strict only the calls enforce would not refuse, and counts both levels whole", () => {
    const r = fullReport();
    const g = levelGroups(r);
    expect(g.enforce).toBe(r.window.refusedAt.enforce);
    expect(g.enforceTotal).toBe(7);
    expect(g.strictTotal).toBe(8);
    expect(g.strictMore).toEqual([
      { rule: "paths.confirm **/.env", policy: "default", calls: [FULL_CALLS[7]] },
    ]);
  });

  it("keeps the calls of a group that enforce lets through, and drops the others", () => {
    const noted = flagged({ t: "n", outcomes: { enforce: "forward-noted", strict: "refuse" } });
    const passed = flagged({ t: "p", outcomes: { enforce: "forward", strict: "ask" } });
    const refused = flagged({ t: "r" });
    const g = levelGroups(withCalls(emptyReport(), [noted, refused, passed]));
    expect(g.strictMore).toEqual([
      { rule: "paths.deny ~/.ssh/**", policy: "default", calls: [noted, passed] },
    ]);
    expect([g.enforceTotal, g.strictTotal]).toEqual([1, 3]);
  });
});

describe("groupsAt", () => {
  it("takes at each level only the calls it would refuse or ask about", () => {
    const both = flagged({ t: "1" });
    const askedAtStrict = flagged({ t: "2", outcomes: { enforce: "forward-noted", strict: "ask" } });
    const askedAtEnforce = flagged({ t: "3", outcomes: { enforce: "ask", strict: "forward" } });
    const passed = flagged({ t: "4", outcomes: { enforce: "forward", strict: "forward-noted" } });
    const calls = [both, askedAtStrict, askedAtEnforce, passed];
    const rule = "paths.deny ~/.ssh/**";
    expect(groupsAt("enforce", calls)).toEqual([{ rule, policy: "default", calls: [both, askedAtEnforce] }]);
    expect(groupsAt("strict", calls)).toEqual([{ rule, policy: "default", calls: [both, askedAtStrict] }]);
    expect(groupsAt("enforce", [passed])).toEqual([]);
  });

  it("groups by policy and rule, the biggest first, then by rule, keeping equal ones in order", () => {
    const b = flagged({ rule: "b", policy: "p" });
    const aP = flagged({ rule: "a", policy: "p" });
    const none = flagged({ rule: undefined, policy: "p" });
    const aQ = flagged({ rule: "a", policy: "q" });
    const c1 = flagged({ rule: "c", policy: "p", t: "1" });
    const c2 = flagged({ rule: "c", policy: "p", t: "2" });
    expect(groupsAt("enforce", [b, aP, none, aQ, c1, c2])).toEqual([
      { rule: "c", policy: "p", calls: [c1, c2] },
      { rule: "(no rule)", policy: "p", calls: [none] },
      { rule: "a", policy: "p", calls: [aP] },
      { rule: "a", policy: "q", calls: [aQ] },
      { rule: "b", policy: "p", calls: [b] },
    ]);
    expect(groupsAt("enforce", [aQ, aP]).map((g) => g.policy)).toEqual(["q", "p"]);
    expect(groupsAt("enforce", [b, aP]).map((g) => g.rule)).toEqual(["a", "b"]);
    expect(groupsAt("enforce", [aP, b]).map((g) => g.rule)).toEqual(["a", "b"]);
    expect(groupsAt("enforce", [b, c1, c2]).map((g) => g.rule)).toEqual(["c", "b"]);
  });
});

describe("plural", () => {
  it("puts the noun in the singular for one only", () => {
    expect([0, 1, 2].map((n) => plural(n, "day"))).toEqual(["0 days", "1 day", "2 days"]);
    expect(plural(2, "body", "bodies")).toBe("2 bodies");
    expect(plural(1, "body", "bodies")).toBe("1 body");
  });
});

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.0 KiB"],
    [1536, "1.5 KiB"],
    [1024 * 1024 - 1, "1024.0 KiB"],
    [1024 * 1024, "1.0 MiB"],
    [5 * 1024 ** 3, "5.0 GiB"],
    [1024 ** 4, "1.0 TiB"],
    [1024 ** 5, "1024.0 TiB"],
  ])("writes %d bytes as %s", (n, s) => {
    expect(formatBytes(n)).toBe(s);
  });
});

describe("shortTime", () => {
  it("keeps the day and the minute of an ISO time, and says ? for none", () => {
    expect(shortTime("2026-11-30T10:12:33.456Z")).toBe("2026-11-30 10:12");
    expect(shortTime(null)).toBe("?");
  });
});
