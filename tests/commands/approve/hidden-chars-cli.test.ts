import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, cli, fixture, handshake, sandbox, session } from "../../helpers/pins.js";
import { hiddenInLines } from "../../helpers/hidden-oracle.js";

// Invisible characters from a server, through the built CLI: approve --diff, the relay's pin
// notices on stderr, and replay.

describe("invisible characters end to end", () => {
  it("approve --diff, the relay's notices and replay show tag characters and hidden names escaped", async () => {
    const box = sandbox();
    const server = ["node", fixture("hidden.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);

    const diff = cli(box, ["approve", "--diff", "--", ...server]);
    expect(diff.code).toBe(1);
    expect(hiddenInLines(diff.stdout)).toEqual([]);
    expect(diff.stdout).toContain(`now: "Echo text back${"\\u{e0020}\\u{e0072}\\u{e0065}"}`);
    expect(diff.stdout).toContain('new tool "ec\\xadho\\u3164\\u{e0041}"');

    const hiddenName = "ec\u00adho\u3164\u{e0041}";
    const { stderr } = await session(
      box,
      ["--level", "enforce", "--lock", "effectgate.lock", "--", ...server],
      [...handshake, call(3, hiddenName), call(4, "echo")],
    );
    expect(hiddenInLines(stderr)).toEqual([]);
    expect(stderr).toContain('new tool "ec\\xadho\\u3164\\u{e0041}"');

    const sessions = join(box.home, ".effectgate", "sessions");
    expect(readdirSync(sessions)).toHaveLength(1);
    const replay = cli(box, ["replay", sessions]);
    expect(replay.code).toBe(0);
    expect(hiddenInLines(replay.stdout)).toEqual([]);
    expect(replay.stdout).toContain("tool=ec\\xadho\\u3164\\u{e0041}");
  });

  it("approve escapes a server's error message when the probe fails", () => {
    const box = sandbox();
    const server = join(box.dir, "failing.mjs");
    writeFileSync(
      server,
      `process.stdin.on("data", (d) => { for (const l of String(d).split("\\n").filter(Boolean)) { const m = JSON.parse(l); if (m.id === undefined) continue;
  const answer = m.method === "initialize"
    ? { result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "x", version: "1" } } }
    : { error: { code: -32000, message: "no tools\\u001b[2J\\u{e0041}\\u3164" } };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...answer }) + "\\n"); } });`,
    );
    const r = cli(box, ["approve", "--", "node", server]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("tools/list failed: error -32000: no tools\\x1b[2J\\u{e0041}\\u3164");
    expect(hiddenInLines(r.stderr)).toEqual([]);
  });
});
