// The shadow worker (docs/decisions/0050): at observe the built CLI relays bytes on its own thread
// and a worker records them. Judged by what the client received and what the log holds.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordFromLine } from "../../../src/log/reader.js";
import { PassThrough } from "node:stream";
import { buildGate } from "../../../src/relay/gates/build-gates.js";
import { Flow, Outbound } from "../../../src/relay/session/flow.js";
import { startShadow } from "../../../src/relay/session/worker-frames.js";
import { fixture, tempDir, testEnv } from "../helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");

function records(dir: string): Array<Record<string, unknown>> {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => recordFromLine(l) as Record<string, unknown>),
    );
}

/** Runs the CLI around burst.mjs, sends one line, reads everything until it exits. */
function burst(
  level: string,
  n: number,
  size: number,
): Promise<{ out: Buffer; code: number | null; logs: string }> {
  const home = tempDir("eg-shadow-");
  const logs = join(home, "logs");
  const child = spawn(
    "node",
    [MAIN, "--level", level, "--log-dir", logs, "--", "node", fixture("burst.mjs"), String(n), String(size)],
    {
      env: testEnv({ HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") }),
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const out: Buffer[] = [];
  // The client hangs up only once the whole burst has arrived: hanging up at once would start
  // the relay's grace period while a loaded machine still moves the burst, and end in SIGTERM.
  let lines = 0;
  child.stdout.on("data", (c: Buffer) => {
    out.push(c);
    for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
    if (lines >= n) child.stdin.end();
  });
  child.stderr.resume();
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ out: Buffer.concat(out), code, logs })),
  );
}

describe("shadow worker", () => {
  it("a burst larger than the worker's backlog: every frame reaches the client and the log, in order", async () => {
    const n = 120;
    const size = 256 * 1024; // 30 MiB in all: past the 16 MiB the relay lets the worker fall behind
    const { out, code, logs } = await burst("observe", n, size);
    expect(code).toBe(0);
    const lines = out
      .toString("utf8")
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toHaveLength(n);
    expect(lines.map((l) => (JSON.parse(l) as { params: { i: number } }).params.i)).toEqual([
      ...Array(n).keys(),
    ]);

    const recs = records(logs);
    expect(recs[0]?.type).toBe("header");
    expect(recs.at(-1)?.type).toBe("exit");
    expect(recs.map((r) => r.seq)).toEqual(recs.map((_, i) => i + 1)); // nothing lost or torn
    const frames = recs.filter((r) => r.type === "frame" && r.dir === "s2c");
    expect(frames.map((r) => r.text)).toEqual(lines);
    expect(recs.filter((r) => r.type === "stderr").map((r) => r.text)).toEqual(
      [...Array(n).keys()].map((i) => `burst ${i}`),
    );
    expect(recs.at(-1)).toMatchObject({ counts: { s2cFrames: n, c2sFrames: 1, stderrLines: n } });
  });

  it("records the same frames as the relay's own thread does at enforce", async () => {
    const shape = (logs: string) =>
      records(logs)
        .filter((r) => r.type === "frame" || r.type === "stderr")
        .map((r) => `${String(r.type)} ${String(r.dir ?? "")} ${String(r.size ?? "")} ${String(r.text)}`);
    const observed = await burst("observe", 40, 4096);
    const enforced = await burst("enforce", 40, 4096);
    expect(shape(observed.logs)).toHaveLength(81);
    expect(new Set(shape(observed.logs))).toEqual(new Set(shape(enforced.logs)));
    expect(observed.out.equals(enforced.out)).toBe(true);
  });

  it("a worker that cannot start: said, and what the relay posted meanwhile is read and logged on its own thread", async () => {
    // Under the test runner the worker's compiled file does not exist next to the TypeScript
    // source, so the worker fails only after the relay has gone on (decision 0130).
    const said: string[] = [];
    const dir = tempDir();
    const gate = { serverArgv: ["x"], cwd: process.cwd(), off: true };
    const shadow = startShadow(
      {
        gate,
        level: "observe",
        log: { dir, name: null },
        header: { effectgate: "0", argv: [], server: ["x"], name: null, cwd: "/", pid: 1, platform: "linux" },
        maxFrameBytes: 1024,
      },
      (line) => said.push(line),
      () => buildGate(gate),
    );
    const sink = new PassThrough();
    sink.resume();
    const frames = shadow.frames({
      toClient: new Outbound(sink, undefined, () => undefined),
      clientFlow: new Flow(new PassThrough()),
      serverFlow: new Flow(new PassThrough()),
      announce: (line) => said.push(line),
      onError: (err) => said.push(`error: ${String(err)}`),
    });
    // Posted at once, before the worker has even failed.
    shadow.log.event("server-start", { pid: 1, argv: ["x"] });
    frames.push("server", Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
    frames.end("server");
    await frames.settled("server");
    frames.push("client", Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
    frames.end("client");
    expect((await frames.finish()).stats).toMatchObject({ s2cFrames: 1, c2sFrames: 1 });
    shadow.log.exit({ code: 0, signal: null, exitCode: 0, counts: {} } as never);
    await shadow.close();
    expect(said.join("\n")).toMatch(/shadow worker did not start \(.+\); checking on the relay's own thread/);
    expect(said.join("\n")).not.toMatch(/no longer logged/);
    const recs = records(dir);
    expect(recs.map((r) => `${String(r.type)}${r.type === "frame" ? ` ${String(r.dir)}` : ""}`)).toEqual([
      "header",
      "event",
      "frame s2c",
      "frame c2s",
      "exit",
    ]);
  });
});
