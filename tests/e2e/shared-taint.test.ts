import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  fileTaintStore,
  SHARED_TAINT_TTL_MS,
  sweepExpiredTaint,
} from "../../src/relay/gates/shared-taint.js";
import { RawClient, RECORDING_SERVER, received, sandbox } from "./harness.js";

describe("taint shared between the relays of one client", () => {
  it("a page fetched through one server makes an exec call through another a deny", async () => {
    const { env, home, record } = sandbox();
    const web = new RawClient(
      ["--level", "enforce", "--name", "web", "--", process.execPath, RECORDING_SERVER],
      { ...env, RECORD_FILE: join(home, "web.jsonl") },
    );
    const shell = new RawClient(
      ["--level", "enforce", "--name", "shell", "--", process.execPath, RECORDING_SERVER],
      env,
    );
    await web.initialize();
    await shell.initialize();
    const before = await shell.call(1, "run_command", { command: "deploy-tool --all" });
    await web.call(1, "fetch", { url: "https://example.com/issue/1" });
    const after = await shell.call(2, "run_command", { command: "deploy-tool --all" });
    await web.close();
    await shell.close();

    // Exec is a confirm while clean (relayed at enforce) and a deny once the client is tainted.
    expect((before.result as { isError?: boolean }).isError).toBeUndefined();
    expect((after.result as { isError?: boolean }).isError).toBe(true);
    expect(
      received(record)
        .filter((m) => m.method === "tools/call")
        .map((m) => m.id),
    ).toEqual([1]);
  });

  it("does not cross to relays of another effectgate home", async () => {
    const a = sandbox();
    const b = sandbox();
    const web = new RawClient(["--level", "enforce", "--", process.execPath, RECORDING_SERVER], a.env);
    const shell = new RawClient(["--level", "enforce", "--", process.execPath, RECORDING_SERVER], b.env);
    await web.initialize();
    await shell.initialize();
    await web.call(1, "fetch", { url: "https://example.com/" });
    const after = await shell.call(2, "run_command", { command: "deploy-tool --all" });
    await web.close();
    await shell.close();
    expect((after.result as { isError?: boolean }).isError).toBeUndefined();
  });

  it("markers expire and are swept", () => {
    const dir = mkdtempSync(join(tmpdir(), "effectgate-taint-"));
    // The marker's mtime is set from the store's clock, which is the real one here.
    const store = fileTaintStore(dir, "client-1");
    expect(store.isTainted()).toBe(false);
    store.mark({ by: "fetch", reason: "source", why: "fetch is a taint source" }, "web");
    expect(store.isTainted()).toBe(true);
    sweepExpiredTaint(dir, Date.now() + SHARED_TAINT_TTL_MS + 1);
    expect(store.isTainted()).toBe(false);
  });
});
