// Black-box: the BUILT CLI (node dist/main.js). Run `npm run build` first.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { observeNotice, RELAY_HOW_TO_ENFORCE } from "../../src/core/gate/observe-notice.js";
import { fixture, tempDir, testEnv } from "./helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");

/** Starts the CLI over echo.mjs; `then` runs once the first ping is answered. */
function run(
  logDir: string,
  then: (child: ReturnType<typeof spawn>) => void,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [MAIN, "--log-dir", logDir, "--", process.execPath, fixture("echo.mjs")],
      {
        env: testEnv(),
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stderr = "";
    let answered = false;
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.stdout.on("data", () => {
      if (answered) return;
      answered = true;
      then(child);
    });
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  });
}

describe("effectgate's own stderr lines", () => {
  it("a log that cannot be written is said with one effectgate: prefix", async () => {
    const blocker = join(tempDir(), "not-a-folder");
    writeFileSync(blocker, "x");
    const r = await run(join(blocker, "logs"), (child) => child.stdin?.end());
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^effectgate: cannot write session log /m);
    expect(r.stderr).not.toContain("effectgate: effectgate:");
  });

  it("SIGTERM to effectgate: one line saying so, and the log records the signal and the exit", async () => {
    const logDir = tempDir();
    const r = await run(logDir, (child) => child.kill("SIGTERM"));
    expect(r.code).toBe(143);
    // After the first session's word on the observe level, said when the server started.
    const notice = observeNotice(RELAY_HOW_TO_ENFORCE).map((l) => `effectgate: ${l}\n`);
    expect(r.stderr).toBe(`${notice.join("")}effectgate: received SIGTERM; stopping the server\n`);
    const files = readdirSync(logDir).filter((f) => f.endsWith(".jsonl"));
    const events = files
      .flatMap((f) => readFileSync(join(logDir, f), "utf8").trim().split("\n"))
      .map((l) => JSON.parse(l) as { type: string; ev?: string; data?: Record<string, unknown> })
      .filter((x) => x.type === "event");
    expect(events.map((e) => e.ev)).toEqual(expect.arrayContaining(["signal", "server-exit"]));
    expect(events.find((e) => e.ev === "server-exit")?.data).toMatchObject({ signal: "SIGTERM", said: null });
  });
});
