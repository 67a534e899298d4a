// eval on the user's own session folder (issue 24): a progress line on a terminal and nothing
// on a pipe, and --home for sessions started outside a home folder.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressLine } from "../../../src/commands/progress.js";
import { cli, MAIN, sandbox } from "../../helpers/pins.js";
import { echoSession, tool } from "../../helpers/relay-sessions.js";

let box: ReturnType<typeof sandbox>;
let sessions: string;

beforeAll(async () => {
  box = sandbox();
  sessions = join(box.home, ".effectgate", "sessions");
  // The relay runs in box.dir, which is not under a home folder: home cannot be read off it.
  await echoSession(box, { level: "observe", name: "fs" }, [
    tool(3, "write_file", { path: join(box.home, ".ssh", "authorized_keys"), content: "x" }),
  ]);
}, 60_000);

afterAll(() => rmSync(box.dir, { recursive: true, force: true }));

type Report = { benign: { calls: number; enforce: { blocks: number } } };
const evalJson = (...args: string[]) =>
  JSON.parse(cli(box, ["eval", "--benign", sessions, "--json", ...args]).stdout) as Report;

describe("eval --benign on your own sessions", () => {
  it("finds the write to your ~/.ssh only when --home says where your home is", () => {
    expect(evalJson().benign.enforce.blocks).toBe(0);
    expect(evalJson("--home", box.home).benign).toMatchObject({ calls: 1, enforce: { blocks: 1 } });
    const r = cli(box, ["eval", "--benign", sessions, "--home", "relative/dir"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--home: expected an absolute folder, got "relative/dir"');
  });

  it("shows progress on a terminal, erased at the end, and nothing on a pipe", () => {
    const cmd = [process.execPath, MAIN, "eval", "--benign", sessions].map((w) => `'${w}'`).join(" ");
    const tty = spawnSync("script", ["-qec", cmd, "/dev/null"], {
      env: box.env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(tty.stdout).toContain("effectgate eval: reading logs 0/1");
    expect(tty.stdout).toContain("effectgate eval: judging sessions 0/1");
    expect(tty.stdout).toContain("\r\x1b[2K");
    const pipe = cli(box, ["eval", "--benign", sessions]);
    expect(pipe.code).toBe(0);
    expect(pipe.stderr).toBe("");
    expect(pipe.stdout).not.toContain("effectgate eval:");
  }, 60_000);
});

describe("progressLine", () => {
  it("writes at most every 100 ms on a terminal, and clears its line once", () => {
    const written: string[] = [];
    let now = 0;
    const p = progressLine({ isTTY: true, write: (s: string) => written.push(s) }, "judging", () => now);
    p.set(0, 3);
    now = 50;
    p.set(1, 3);
    now = 150;
    p.set(2, 3);
    p.end();
    p.end();
    expect(written).toEqual([
      "\r\x1b[2Keffectgate eval: judging 0/3",
      "\r\x1b[2Keffectgate eval: judging 2/3",
      "\r\x1b[2K",
    ]);
  });

  it("writes nothing when the stream is not a terminal", () => {
    const written: string[] = [];
    const p = progressLine({ write: (s: string) => written.push(s) }, "judging");
    p.set(0, 1);
    p.tick();
    p.end();
    expect(written).toEqual([]);
  });
});
