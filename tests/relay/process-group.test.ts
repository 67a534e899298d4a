// Black-box (built CLI): a server started through a shell leaves nothing running once effectgate
// has exited, whether the client closed stdin or effectgate was signalled (POSIX only; Windows
// signals only the server process itself, decision 0003).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { killedAfterEach, pidFrom, startCli, stopped } from "./cli-session.js";
import { fixture, tempDir, testEnv } from "./helpers.js";

const started = killedAfterEach();

async function throughShell(): Promise<{ run: ReturnType<typeof startCli>; grandchild: number }> {
  const pidFile = join(tempDir(), "grandchild.pid");
  // `; echo done` keeps the shell from exec-ing node: node is the server's child, not the server.
  const script = `"${process.execPath}" "${fixture("grandchild.mjs")}"; echo done`;
  const run = startCli(["--log-dir", tempDir(), "--", "sh", "-c", script], testEnv({ PID_FILE: pidFile }));
  const grandchild = await pidFrom(pidFile);
  started.push(grandchild);
  return { run, grandchild };
}

describe.skipIf(process.platform === "win32")("the server's whole process group is stopped", () => {
  it("client EOF: the shell and the process it started are gone", async () => {
    const { run, grandchild } = await throughShell();
    run.end();
    const r = await run.done;
    expect(r.code).toBe(143); // the shell died of effectgate's SIGTERM: 128 + 15
    expect(await stopped(grandchild)).toBe(true);
  });

  it("SIGTERM to effectgate: passed to the group, nothing left running", async () => {
    const { run, grandchild } = await throughShell();
    process.kill(run.pid, "SIGTERM");
    const r = await run.done;
    expect(r.code).toBe(143);
    expect(r.stderr).toContain("received SIGTERM; stopping the server");
    expect(await stopped(grandchild)).toBe(true);
  });

  it("SIGINT (Ctrl-C) to effectgate: passed to the group, exit 130", async () => {
    const { run, grandchild } = await throughShell();
    process.kill(run.pid, "SIGINT");
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(await stopped(grandchild)).toBe(true);
  });
});
