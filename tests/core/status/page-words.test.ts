// The status page says what the text report says: counts with their noun in the singular when
// there is one, and a declaration it cannot read as such, not as a server left unwrapped.
import { describe, expect, it } from "vitest";
import { statusPage } from "../../../src/core/status/html.js";
import { formatStatus, type StatusReport } from "../../../src/core/status/report.js";

function report(): StatusReport {
  return {
    clients: [
      {
        client: "claude-code",
        path: "/home/u/.claude.json",
        servers: [{ name: "bad", kind: "invalid", wrapped: false }],
      },
    ],
    logs: {
      dir: "/home/u/.effectgate/sessions",
      exists: true,
      sessions: 1,
      bytes: 10,
      oldest: null,
      keepDays: null,
      keepFrom: "EFFECTGATE_KEEP_DAYS",
    },
    recent: [],
    window: {
      days: 7,
      since: "2026-11-23T00:00:00.000Z",
      sessions: 1,
      calls: 1,
      enforce: { ok: false, blocks: 0, calls: 0, why: "too little active time to say" },
      strict: { ok: false, blocks: 0, calls: 0, why: "too little active time to say" },
      refusedAt: { enforce: [], strict: [] },
      notJudged: [{ policy: "/p.yaml", sessions: 1, why: "it cannot be read" }],
      unreadable: [],
    },
    shippedPolicy: "/opt/effectgate/policy/default.yaml",
    home: "/home/u",
  };
}

describe("the status page and the text agree", () => {
  it("counts one session and one call in the singular", () => {
    const page = statusPage(report(), []);
    expect(page).toContain("1 session, 10 B");
    expect(page).toContain("(1 session, 1 call)");
    expect(page).toContain("NOT JUDGED: 1 session under");
    expect(page).not.toMatch(/\b1 (sessions|calls)\b/);
    expect(formatStatus(report()).join("\n")).toContain("NOT JUDGED: 1 session under");
  });

  it("calls an unreadable declaration what the text calls it", () => {
    const words = "a declaration effectgate cannot read";
    expect(formatStatus(report()).join("\n")).toContain(words);
    expect(statusPage(report(), [])).toContain(`<td>${words}</td>`);
    expect(statusPage(report(), [])).not.toContain("NOT wrapped");
  });
});
