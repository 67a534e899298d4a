// npm run demo is a new user's first look: it must say whose words are whose, show the spelling
// it is about, explain the replay it prints, and say what the default level does.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./harness.js";

let out = "";
let status: number | null = null;

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "demo.mjs")], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  out = r.stdout;
  status = r.status;
});

afterAll(() => {
  const log = /session log \(owner-only JSONL\): (\S+)/.exec(out)?.[1];
  if (log) rmSync(dirname(dirname(log)), { recursive: true, force: true });
});

/** The lines under a heading, up to the next blank line. */
function section(heading: string): string[] {
  const start = out.indexOf(`\n${heading}\n`);
  if (start === -1) return [];
  const body = out.slice(start + heading.length + 2);
  return body.slice(0, body.indexOf("\n\n")).split("\n");
}

describe("the demo", () => {
  it("passes: the refused git hook never reached the disk", () => {
    expect(status, out).toBe(0);
    expect(out).toContain(".git/hooks/pre-commit:    not written");
  });

  it("shows the server's stderr under the server's name, and only effectgate's lines as effectgate's", () => {
    const ours = section("effectgate said on stderr:");
    expect(ours.length).toBeGreaterThan(0);
    for (const l of ours) expect(l).toMatch(/^ {2}effectgate: /);
    const theirs = section("the server said on stderr (relayed by effectgate):");
    // Each server line carries the mark effectgate gives it (decision 0071).
    expect(theirs).toContain("  [server] Secure MCP Filesystem Server running on stdio");
  });

  it("shows the .. spelling the call asked for, next to the file it was judged as", () => {
    const row = out.indexOf("the same path, spelled with ..");
    expect(row).toBeGreaterThan(-1);
    const after = out.slice(row).split("\n").slice(1, 3);
    expect(after[0]).toMatch(/^ {9}the call asked for: \/.*\/project\/docs\/\.\.\/\.env$/);
    expect(after[1]).toMatch(/would read \/.*\/project\/\.env, which matches paths\.deny_read/);
  });

  it("says how to read the replay before printing it, and what the default level does", () => {
    const legend = out.indexOf("how to read it:");
    expect(legend).toBeGreaterThan(out.indexOf("effectgate replay"));
    expect(legend).toBeLessThan(out.indexOf("\n== "));
    expect(out).toContain("-> client to server, <- server to client");
    expect(out).toContain("without --level effectgate runs at observe: it refuses nothing");
    expect(out).toContain("effectgate install --level enforce");
  });
});
