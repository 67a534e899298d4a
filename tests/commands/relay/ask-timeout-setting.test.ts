// Black-box: the BUILT CLI. A bad EFFECTGATE_ASK_TIMEOUT_MS is a clear error before the server
// starts, not a silent fall back to the default.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, tempDir, testEnv } from "../../relay/helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");

function relay(setting: string, extra: Record<string, string> = {}) {
  const dir = tempDir();
  const record = join(dir, "received.jsonl");
  const r = spawnSync(
    process.execPath,
    [MAIN, "--log-dir", join(dir, "logs"), "--", process.execPath, fixture("echo.mjs"), record],
    {
      env: testEnv({ EFFECTGATE_ASK_TIMEOUT_MS: setting, ...extra }),
      input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
      encoding: "utf8",
    },
  );
  return { ...r, started: existsSync(record) };
}

describe("EFFECTGATE_ASK_TIMEOUT_MS", () => {
  it("stops with exit 78 and says what was expected, before the server starts", () => {
    for (const bad of ["5m", "0", "-1", "1.5", "99999999999"]) {
      const r = relay(bad);
      expect(r.status, bad).toBe(78);
      expect(r.stderr).toBe(
        `effectgate: environment: EFFECTGATE_ASK_TIMEOUT_MS: expected a whole number of milliseconds from 1 to 9999999999, got ${JSON.stringify(bad)}\n`,
      );
      expect(r.started).toBe(false);
    }
  });

  it("takes a good value, an empty one (the default), and anything with the checks off", () => {
    for (const ok of ["1500", ""]) expect(relay(ok).status, ok).toBe(0);
    const off = relay("5m", { EFFECTGATE_OFF: "1" });
    expect(off.status).toBe(0);
    expect(off.started).toBe(true);
  });
});
