/**
 * The sign-in lock file itself (decision 0116), with real processes as holders: a live one
 * keeps it, a dead one or an old one loses it, and the file is owner-only.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SignInLock } from "../../../../src/relay/remote/auth/sign-in-lock.js";

const dirs: string[] = [];
const children: Array<{ kill(): boolean }> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function lockPath(): string {
  const d = mkdtempSync(join(tmpdir(), "effectgate-lock-"));
  dirs.push(d);
  return join(d, "server.lock");
}
/** A pid that was a process a moment ago and is none now. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(r.stdout);
}

describe("SignInLock", () => {
  it("is taken once, owner-only, and freed on release", () => {
    const path = lockPath();
    const a = new SignInLock({ path, timeoutMs: 60_000 });
    expect(a.acquire()).toBe("held");
    if (process.platform !== "win32") expect(statSync(path).mode & 0o777).toBe(0o600);
    a.release();
    expect(existsSync(path)).toBe(false);
  });

  it("is busy while another live process holds it, and free once that process is gone", async () => {
    const path = lockPath();
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    children.push(holder);
    writeFileSync(path, JSON.stringify({ pid: holder.pid, since: Date.now() }), { mode: 0o600 });
    const me = new SignInLock({ path, timeoutMs: 60_000, pollMs: 20 });
    expect(me.acquire()).toBe("busy");
    expect(me.busy()).toBe(true);
    const freed = me.released();
    holder.kill();
    await freed;
    expect(me.acquire()).toBe("held");
    me.release();
  });

  it("takes over a lock whose process is gone, one older than the sign-in timeout, or one it cannot read", () => {
    const path = lockPath();
    const me = new SignInLock({ path, timeoutMs: 60_000 });
    for (const text of [
      JSON.stringify({ pid: deadPid(), since: Date.now() }),
      JSON.stringify({ pid: process.ppid, since: Date.now() - 61_000 }),
      "{half a lock",
    ]) {
      writeFileSync(path, text, { mode: 0o600 });
      expect(me.acquire(), text).toBe("held");
      me.release();
      expect(existsSync(path)).toBe(false);
    }
  });
});
