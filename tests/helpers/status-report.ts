// Hand-built `effectgate status` reports for the tests of src/core/status: one with a little of
// everything, and the flagged calls they are made from.
import { groupsAt, type StatusReport, type WouldRefuse } from "../../src/core/status/report.js";

const HOME = "/home/u";
export const SHIPPED = "/opt/effectgate/policy/default.yaml";
export const COPY = `${HOME}/effectgate-policy.yaml`;

/** A flagged call: by default a read of an ssh key under the shipped policy, refused at both levels. */
export function flagged(over: Partial<WouldRefuse> = {}): WouldRefuse {
  return {
    file: "s1.jsonl",
    line: 3,
    sid: "s1",
    t: "2026-12-01T10:00:59.000Z",
    method: "tools/call",
    tool: "read_file",
    verdict: "deny",
    rule: "paths.deny ~/.ssh/**",
    reason: "a denied path",
    tainted: false,
    outcomes: { enforce: "refuse", strict: "refuse" },
    effect: "read /home/u/.ssh/id_rsa",
    server: "fs",
    policy: "default",
    ...over,
  };
}

/** `n` calls of `base`, a minute apart from 10:0i. */
export function minutes(n: number, base: Partial<WouldRefuse> = {}): WouldRefuse[] {
  return Array.from({ length: n }, (_, i) => flagged({ ...base, t: `2026-12-01T10:0${i}:59.000Z` }));
}

/** No clients, no logs, no sessions, nothing flagged. */
export function emptyReport(): StatusReport {
  return {
    clients: [],
    logs: {
      dir: "/home/u/.effectgate/sessions",
      exists: false,
      sessions: 0,
      bytes: 0,
      oldest: null,
      keepDays: null,
      keepFrom: "the default",
    },
    recent: [],
    window: {
      days: 7,
      since: "2026-11-24T00:00:00.000Z",
      sessions: 0,
      calls: 0,
      enforce: { ok: false, blocks: 0, calls: 0, why: "no calls" },
      strict: { ok: false, blocks: 0, calls: 0, why: "no calls" },
      refusedAt: { enforce: [], strict: [] },
      notJudged: [],
      unreadable: [],
    },
    shippedPolicy: SHIPPED,
    home: HOME,
  };
}

/** The flagged calls of the full report: 6 ssh reads (the first with params), one tainted exec
 * call without server, tool or effect under another policy, and one .env write asked at strict. */
export const FULL_CALLS: WouldRefuse[] = [
  ...minutes(6).map((c, i) =>
    i === 0 ? { ...c, params: { arguments: { path: "/home/u/.ssh/id_rsa" } } } : c,
  ),
  flagged({
    t: "2026-12-01T11:00:00.000Z",
    rule: "exec.action curl",
    policy: "/p.yaml",
    server: null,
    tool: undefined,
    method: "prompts/get",
    effect: undefined,
    reason: "a blocked command",
    tainted: true,
  }),
  flagged({
    t: "2026-12-01T12:00:00.000Z",
    rule: "paths.confirm **/.env",
    tool: "write_file",
    verdict: "confirm",
    effect: "write /w/.env",
    reason: "a confirmed path",
    outcomes: { enforce: "forward-noted", strict: "ask" },
  }),
];

/** Every kind of server, client and session line, and calls flagged at both levels. */
export function fullReport(): StatusReport {
  return {
    clients: [
      {
        client: "claude-code",
        path: "/home/u/.claude.json",
        servers: [
          { name: "fs", kind: "stdio", wrapped: true, level: "enforce", policy: "/p.yaml", lock: "/l.json" },
          { name: "git", kind: "stdio", wrapped: true },
          { name: "off", kind: "stdio", wrapped: true, off: true, level: "strict" },
          { name: "web", kind: "remote", wrapped: false },
          { name: "bad", kind: "invalid", wrapped: false },
          { name: "other", kind: "stdio", wrapped: false, foreign: true },
          { name: "bare", kind: "stdio", wrapped: false },
        ],
      },
      { client: "cursor", path: "/home/u/.cursor/mcp.json", servers: [] },
      { client: "vscode", path: "/home/u/settings.json", error: "not JSON", servers: [] },
    ],
    logs: {
      dir: "/home/u/.effectgate/sessions",
      exists: true,
      sessions: 3,
      bytes: 2048,
      oldest: "2026-11-02T08:05:09.000Z",
      keepDays: 30,
      keepFrom: "EFFECTGATE_KEEP_DAYS",
    },
    recent: [
      {
        file: "a.jsonl",
        sid: "a",
        start: "2026-12-01T09:30:00.000Z",
        name: "fs",
        level: "enforce",
        calls: 12,
        refused: 2,
        tainted: true,
        client: "claude-code 1.2",
        asks: "dialog",
      },
      {
        file: "b.jsonl",
        sid: "b",
        start: null,
        name: null,
        level: null,
        calls: 1,
        refused: 0,
        tainted: false,
        client: null,
        asks: "elicitation",
      },
      {
        file: "c.jsonl",
        sid: "c",
        start: "2026-12-02T00:00:00.000Z",
        name: "c",
        level: "strict",
        calls: 0,
        refused: 0,
        tainted: false,
        client: "x",
        asks: "input_required",
      },
      {
        file: "d.jsonl",
        sid: "d",
        start: "2026-12-02T01:00:00.000Z",
        name: "d",
        level: "observe",
        calls: 2,
        refused: 1,
        tainted: false,
        client: "y",
        asks: "out of band",
      },
      {
        file: "e.jsonl",
        sid: "e",
        start: "2026-12-02T02:00:00.000Z",
        name: "e",
        level: "observe",
        calls: 3,
        refused: 0,
        tainted: false,
        client: null,
        asks: null,
      },
    ],
    window: {
      days: 7,
      since: "2026-11-24T00:00:00.000Z",
      sessions: 3,
      calls: 40,
      enforce: { ok: true, perWeek: 3, blocks: 7, calls: 40 },
      strict: { ok: false, blocks: 8, calls: 40, why: "too little active time to say" },
      refusedAt: { enforce: groupsAt("enforce", FULL_CALLS), strict: groupsAt("strict", FULL_CALLS) },
      notJudged: [{ policy: "/gone.yaml", sessions: 2, why: "it cannot be read" }],
      unreadable: [{ file: "/s/x.jsonl", why: "not JSON" }],
    },
    shippedPolicy: SHIPPED,
    home: HOME,
  };
}

/** `r` with these calls flagged (grouped as the command groups them). */
export function withCalls(r: StatusReport, calls: readonly WouldRefuse[]): StatusReport {
  return {
    ...r,
    window: {
      ...r.window,
      refusedAt: { enforce: groupsAt("enforce", calls), strict: groupsAt("strict", calls) },
    },
  };
}
