// Issue 19 through the built CLI at enforce: an honest `.env.local` write in a clean session
// reaches the server with a notice; after a tainting answer the same write never does; and the
// Windows spellings that open `.env` under another name are refused in a clean session too.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, CLI, GateClient, isRefusal, LENIENT_SERVER, receivedWork } from "./gate-client.js";

describe("a write to .env.local at enforce, default policy", () => {
  it("is relayed with a notice while untainted, and refused once a fetched page tainted the session", async () => {
    const b = box();
    const file = join(b.project, ".env.local");
    const c = new GateClient(
      ["--level", "enforce", "--", process.execPath, LENIENT_SERVER],
      b.env,
      b.project,
    );
    await c.initialize();
    c.call("setup", "write_file", { path: file, content: "API_URL=http://localhost:3000\n" });
    expect(isRefusal(await c.answer("setup"))).toBe(false);
    c.call("page", "fetch", { url: "https://example.com/readme" });
    await c.answer("page");
    c.call("later", "write_file", { path: file, content: "NODE_OPTIONS=--require /tmp/x.js\n" });
    const later = await c.answer("later");
    await c.close();
    // The first write reached the disk, with effectgate's notice naming the rule.
    expect(c.stderr).toMatch(/effectgate: allowed but noted: .*paths\.deny_if_tainted \*\*\/\.env\.\*/);
    // The tainted one was refused, never reached the server, and left the file as it was.
    expect(isRefusal(later)).toBe(true);
    expect(JSON.stringify(later)).toContain("paths.deny_if_tainted **/.env.*");
    expect(readFileSync(file, "utf8")).toBe("API_URL=http://localhost:3000\n");
    const work = receivedWork(b.record);
    expect(work.some((l) => l.includes('"setup"'))).toBe(true);
    expect(work.some((l) => l.includes('"later"'))).toBe(false);
    rmSync(b.home, { recursive: true, force: true });
  }, 30_000);
});

// The live relay takes this machine's path rules; Windows' are judged on the synthetic machine
// `check --platform win32` builds, the relay's own judge (exit 1 confirm, 3 deny).
describe("Windows spellings of .env, untainted, through check --platform win32", () => {
  const { env } = box();
  const verdictOf = (path: string): number | null =>
    spawnSync(
      process.execPath,
      [
        CLI,
        "check",
        "--platform",
        "win32",
        "--level",
        "enforce",
        "--cwd",
        "C:\\Users\\user\\project",
        "--home",
        "C:\\Users\\user",
        "--tool",
        "write_file",
        "--args",
        JSON.stringify({ path, content: "A=1" }),
      ],
      { encoding: "utf8", env },
    ).status;

  it.each([
    "C:\\Users\\user\\project\\.env.",
    "C:\\Users\\user\\project\\.env:x",
    "C:\\Users\\user\\project\\.env.local::$DATA",
  ])("%j is refused", (path) => {
    expect(verdictOf(path)).toBe(3);
  });

  it("the plain spelling only asks", () => {
    expect(verdictOf("C:\\Users\\user\\project\\.env.local")).toBe(1);
  });
});
