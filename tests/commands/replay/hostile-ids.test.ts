// Issue 17, breach 4, black-box: a real relay log holding ids with C1 controls, bidi overrides and
// line separators (the server's own request id, an answer no request waits for, a client's id),
// replayed by the built CLI: nothing reaches the terminal raw, as text or as --json.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "../../adversarial/gate-client.js";
import { startRuntime } from "../../adversarial/runtime-client.js";

const RAW = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const EVIL = "x\u009b2J\u202eevil\u2028\u0085\u001b]0;t\u0007";

describe("replay of a log with hostile ids", () => {
  it("escapes every id it prints", async () => {
    const r = startRuntime("enforce");
    await r.c.initialize();
    const line = (m: unknown) => JSON.stringify(m);
    r.c.call(EVIL, "notify", {
      lines: [
        line({ jsonrpc: "2.0", id: `${EVIL}-srv`, method: "roots/list" }),
        line({ jsonrpc: "2.0", id: `${EVIL}-stray`, result: { content: [] } }),
      ],
    });
    await r.c.answer(EVIL);
    expect(await r.c.close()).toBe(0);
    for (const json of [false, true]) {
      const out = spawnSync(process.execPath, [CLI, "replay", r.b.logDir, ...(json ? ["--json"] : [])], {
        env: r.b.env,
        encoding: "utf8",
      });
      expect(out.status).toBe(0);
      const lines = out.stdout.split("\n");
      for (const l of lines) expect(l).not.toMatch(RAW);
      if (!json) {
        const shown = JSON.stringify(EVIL)
          .slice(1, -1)
          .replace(
            /[\u0085\u009b\u202e\u2028]/g,
            (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
          );
        // The client's call and its answer, the server's request, and the answer no one asked for.
        expect(lines.filter((l) => l.includes(`id="${shown}"`))).toHaveLength(2);
        expect(lines.filter((l) => l.includes(`id="${shown}-srv"`))).toHaveLength(1);
        expect(
          lines.filter((l) => l.includes(`id="${shown}-stray"`) && l.includes("UNMATCHED")),
        ).toHaveLength(1);
      }
    }
  }, 30_000);
});
