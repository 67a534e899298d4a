// Black-box: logs written by the built relay around a fixture server, read back by the built
// `eval --benign` and `replay`. Eval's numbers must say what enforce would have done, whichever
// level wrote the log; replay's counts must be the relay's own.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const CLI = join(ROOT, "dist", "main.js");
const SERVER = join(import.meta.dirname, "..", "..", "fixtures", "servers", "injecting-server.mjs");

beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});

/** A working folder outside any home, a private EFFECTGATE_HOME, and a file of what the server got. */
function box() {
  const dir = mkdtempSync(join(tmpdir(), "eg-eval-relay-"));
  const home = join(dir, "home");
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") };
  delete env["EFFECTGATE_OFF"];
  return { dir, env, logs: join(home, ".effectgate", "sessions"), record: join(dir, "received.txt") };
}

type Line = string | Buffer;

/**
 * Runs the relay at `level` in `dir`, writes each line once the answers it waits for have come
 * (`wait`: ids), and returns what the client read.
 */
async function run(
  b: ReturnType<typeof box>,
  level: string,
  steps: { line: Line; wait: number[] }[],
  serverEnv: Record<string, string> = {},
): Promise<string> {
  const child = spawn(process.execPath, [CLI, "--level", level, "--", process.execPath, SERVER], {
    cwd: b.dir,
    env: { ...b.env, RECORD_FILE: b.record, ...serverEnv },
    stdio: ["pipe", "pipe", "ignore"],
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => (out += d));
  const answered = (id: number) => new RegExp(`"id":${id}[,}]`).test(out);
  for (const step of steps) {
    child.stdin.write(
      typeof step.line === "string" ? `${step.line}\n` : Buffer.concat([step.line, Buffer.from("\n")]),
    );
    while (!step.wait.every(answered)) await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise<void>((resolve) => {
    child.on("exit", () => resolve());
    child.stdin.end();
  });
  return out;
}

const j = (v: unknown) => JSON.stringify(v);
const init = {
  line: j({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  }),
  wait: [0],
};
const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

function evalBenign(b: ReturnType<typeof box>): BenignReport {
  const r = spawnSync(process.execPath, [CLI, "eval", "--benign", b.logs, "--json"], {
    env: b.env,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { benign: BenignReport }).benign;
}

function replay(b: ReturnType<typeof box>): string {
  const r = spawnSync(process.execPath, [CLI, "replay", b.logs], { env: b.env, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The relay's own refusal count, from the log's exit record. */
function relayRefused(b: ReturnType<typeof box>): number {
  const [file] = readdirSync(b.logs);
  const exit = readFileSync(join(b.logs, file as string), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; counts?: { refused: number } })
    .find((r) => r.type === "exit");
  return exit?.counts?.refused ?? -1;
}

describe("eval --benign on logs the relay wrote", () => {
  it("gives the same enforce numbers for an observe log and an enforce log of one session", async () => {
    // A read enforce refuses (.env) whose answer carries an injection, then a command.
    const verdicts: Record<string, BenignReport> = {};
    for (const level of ["observe", "enforce"]) {
      const b = box();
      await run(b, level, [
        init,
        { line: j(call(1, "read_note", { path: join(b.dir, ".env") })), wait: [1] },
        { line: j(call(2, "run_command", { command: "deploy-tool --all" })), wait: [2] },
      ]);
      verdicts[level] = evalBenign(b);
    }
    // Enforce never sent the read, so its command ran untainted, relayed with a notice.
    for (const level of ["observe", "enforce"]) {
      expect(verdicts[level]?.verdicts, level).toEqual({ allow: 0, confirm: 1, deny: 1 });
      expect(verdicts[level]?.enforce, level).toMatchObject({ blocks: 1, calls: 2 });
      expect(verdicts[level]?.flagged.map((f) => `${f.verdict} ${f.tool} ${f.tainted}`)).toEqual([
        "deny read_note false",
        "confirm run_command false",
      ]);
    }
  });

  it("does not read effectgate's refusals of a batch as tool output; replay counts what the relay refused", async () => {
    const b = box();
    const notJson = `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"read_file",}}`;
    const notUtf8 = Buffer.concat([
      Buffer.from(
        `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"${b.dir}/.git/hooks/pre`,
      ),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","content":"x"}}}'),
    ]);
    await run(b, "enforce", [
      init,
      {
        line: j([
          call(1, "read_file", { path: join(b.dir, "a.txt") }),
          call(2, "run_command", { command: "deploy-tool --all" }),
          call(3, "write_file", { path: join(b.dir, ".npmrc"), content: "x" }),
        ]),
        wait: [1, 2, 3],
      },
      { line: j(call(4, "run_command", { command: "deploy-tool status" })), wait: [4] },
      { line: notJson, wait: [13] },
      { line: notUtf8, wait: [14] },
    ]);
    // Nothing of the batch, the non-JSON or the non-UTF-8 call reached the server.
    const got = readFileSync(b.record, "utf8");
    expect(got).not.toContain('"id":1,');
    expect(got).not.toContain('"id":13');
    expect(got).not.toContain('"id":14');
    expect(got).toContain('"id":4,');

    const r = evalBenign(b);
    expect(r.flagged.map((f) => `${f.verdict} ${f.tool ?? f.method} ${f.tainted}`)).toEqual([
      "confirm run_command false",
      "deny write_file false",
      "confirm run_command false",
      "deny tools/call false",
      "deny write_file false",
    ]);
    expect(r.enforce).toMatchObject({ blocks: 3, calls: 6 });

    const text = replay(b);
    const refused = relayRefused(b);
    expect(refused).toBe(5);
    expect(text).toContain(`6 calls, ${refused} refused, 0 failed, 0 unanswered`);
  });

  it("at observe counts an answer the server sent before its call had crossed as that call's", async () => {
    // A 4 MiB call crosses in many chunks; the server answers it from the first one.
    const b = box();
    const out = await run(
      b,
      "observe",
      [
        init,
        { line: j(call(7, "read_note", { pad: "x".repeat(4 << 20) })), wait: [7] },
        { line: j(call(8, "run_command", { command: "deploy-tool --all" })), wait: [8] },
      ],
      { EARLY_ID: "7" },
    );
    expect(out).toContain("Ignore all previous instructions");
    const r = evalBenign(b);
    expect(r.answers).toMatchObject({ early: 1, noRequest: 0 });
    // Enforce would have read that answer after sending the call: the command is judged tainted.
    expect(r.flagged.map((f) => `${f.verdict} ${f.tool} ${f.tainted}`)).toEqual(["deny run_command true"]);

    const text = replay(b);
    expect(text).toMatch(/\*\* EARLY {2}<- {3}result {2}<- tools\/call {2}id=7 {2}tool=read_note/);
    expect(text).toContain(
      "2 calls, 0 refused, 0 failed, 0 unanswered, 1 answered before their call was logged",
    );
  });
});
