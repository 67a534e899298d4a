import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSessionLog } from "../../../src/log/writer.js";
import { sampleHeader } from "../../helpers/log.js";

// A session the real writer rotated (a small maxBytes), replayed by the built CLI: its parts
// must read as one session, with calls answered across the cut matched to their requests.

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");

const header = { ...sampleHeader, argv: ["--", "node", "server.js"] };

function frame(log: ReturnType<typeof openSessionLog>, dir: "c2s" | "s2c", msg: unknown): void {
  log.frame(dir, Buffer.from(JSON.stringify(msg)), "\n", false, true);
}

/** One session rotated into parts, the call's answer in a later part; and a second, short session. */
function writeLogs(): { dir: string; parts: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "eg-rotated-"));
  let t = Date.UTC(2026, 10, 30, 10, 0, 0, 0);
  const now = () => new Date((t += 5));
  const log = openSessionLog({ dir, name: "files", maxBytes: 1500, now, warn: () => {} });
  log.header(header);
  frame(log, "c2s", {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { clientInfo: { name: "cli", version: "1" } },
  });
  frame(log, "s2c", {
    jsonrpc: "2.0",
    id: 1,
    result: { protocolVersion: "2025-11-25", serverInfo: { name: "srv", version: "2" }, capabilities: {} },
  });
  frame(log, "c2s", {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "read_file", arguments: { path: "/tmp/x" } },
  });
  // Enough server stderr to fill the first part, so the answer lands in a later one.
  for (let i = 0; i < 12; i++) log.stderr(`working ${i} ${"-".repeat(100)}`);
  frame(log, "s2c", { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "ok" }] } });
  log.exit({ code: 0, signal: null, exitCode: 0, counts: {} });
  log.close();
  const parts = readdirSync(dir).sort();
  // A torn line at the end of part 2: replay names it by its line in that part.
  appendFileSync(join(dir, parts[1] as string), '{"type":"fra\n');

  t += 60_000;
  const other = openSessionLog({ dir, name: "other", now, warn: () => {} });
  other.header({ ...header, name: "other" });
  other.exit({ code: 0, signal: null, exitCode: 0, counts: {} });
  other.close();
  return { dir, parts };
}

function replay(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, "replay", ...args], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("replay of a rotated session", () => {
  const { dir, parts } = writeLogs();

  it("the writer really rotated it", () => {
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts[1]).toMatch(/-files\.part000002\.jsonl$/);
  });

  for (const [what, target] of [
    ["a folder", () => dir],
    ["its first part", () => join(dir, parts[0] as string)],
  ] as const) {
    it(`reads the parts as one session, given ${what}`, () => {
      const out = replay([target()]);
      expect(out.match(/^session /gm)).toHaveLength(what === "a folder" ? 2 : 1);
      const first = out.slice(0, out.indexOf("summary:"));
      expect(first).toContain(
        `${parts[0]} (+ parts ${parts
          .slice(1)
          .map((_, i) => i + 2)
          .join(", ")})`,
      );
      expect(first).toMatch(/<- {3}result {2}<- tools\/call {2}id=3 {2}tool=read_file/);
      expect(first).toMatch(/\.\. rotated {2}from=.*part=2 reason=size/);
      expect(first).toMatch(/\*\* INVALID {2}line \d+ of part 2: not valid JSON/);
      expect(out).not.toContain("(no matching request)");
      expect(out).not.toContain("(no header record");
      expect(out).toContain("protocol 2025-11-25; client cli 1; server srv 2");
      expect(out).toContain("1 calls, 0 refused, 0 failed, 0 unanswered");
      // The header copy at the top of part 2 is not a second session start.
      expect(out.match(/^ {2}server: node server\.js {2}\(name files\)$/gm)).toHaveLength(1);
    });
  }

  it("--json gives one session for the parts, naming them", () => {
    const lines = replay(["--json", dir])
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l["type"] === "session")).toHaveLength(2);
    expect(lines[0]).toMatchObject({ type: "file", sessions: 1, parts });
  });
});
