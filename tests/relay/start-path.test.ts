// Black-box: what the BUILT relay loads to start, and a server that is gone before the relay is
// ready for it (the server starts while the judges load, docs/decisions/0107-start-up-path.md).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledModules, moduleListHook } from "../helpers/module-list.js";
import { fixture, tempDir, testEnv } from "./helpers.js";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");
const INIT =
  JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  }) + "\n";

/**
 * Runs the relay with a loader hook that lists every file it (and its worker) loads: `loaded`,
 * the bundle's chunks; `modules`, the modules (build/…, node_modules/…) those chunks hold.
 */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  server: string[],
): Promise<{ code: number | null; stdout: string; loaded: string[]; modules: string[] }> {
  const dir = tempDir("eg-start-");
  const { hook, loaded } = moduleListHook(dir);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", hook, MAIN, ...args, "--log-dir", join(dir, "logs"), "--", ...server],
      {
        env,
        stdio: ["pipe", "pipe", "ignore"],
      },
    );
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes("\n")) child.stdin.end();
    });
    child.stdin.write(INIT);
    child.on("exit", (code) =>
      resolve({ code, stdout, loaded: loaded(), modules: bundledModules(loaded()) }),
    );
  });
}

const echo = [process.execPath, fixture("echo.mjs")];
// Parsers and schemas of files a relay with the default policy never reads.
const NOT_ON_THE_START_PATH = /\/node_modules\/(yaml|zod|jsonc-parser|smol-toml|chokidar)\//;

describe("starting the relay with the default policy", () => {
  for (const [what, args, extra] of [
    ["observe", ["--level", "observe"], {}],
    ["enforce", ["--level", "enforce"], {}],
    ["strict", ["--level", "strict"], {}],
    ["EFFECTGATE_OFF=1", [], { EFFECTGATE_OFF: "1" }],
  ] as const) {
    it(`${what}: answers initialize without loading a YAML parser, a schema library or a config reader`, async () => {
      const r = await run([...args], testEnv(extra), echo);
      expect(r.stdout).toContain('"id":0');
      expect(r.loaded.some((u) => u.endsWith("/dist/main.js"))).toBe(true);
      expect(r.modules.filter((u) => NOT_ON_THE_START_PATH.test(u))).toEqual([]);
    });
  }

  it("EFFECTGATE_OFF=1: loads no policy, judge-building or worker module (the kill switch is the cheapest start)", async () => {
    const r = await run([], testEnv({ EFFECTGATE_OFF: "1" }), echo);
    expect(r.stdout).toContain('"id":0');
    // The scanner, the effect extractor and the command catalogue too: the frame reader needs only
    // the scan's budget (core/taint/scan-budget.js, decision 0122).
    const policyWork =
      /\/build\/(config\/|core\/policy\/compile\.js|relay\/gates\/build-gates\.js|relay\/session\/shadow-worker\.js|core\/taint\/observe\.js|core\/effects\/extract\.js|core\/commands\/)/;
    expect(r.modules.filter((u) => policyWork.test(u))).toEqual([]);
    // The same hook sees them at enforce, so the test can fail.
    const on = await run(["--level", "enforce"], testEnv(), echo);
    expect(on.modules.filter((u) => policyWork.test(u)).length).toBeGreaterThan(0);
  });

  it("a policy file is still read with the YAML parser and the schema", async () => {
    const dir = tempDir("eg-start-policy-");
    const policy = join(dir, "p.yaml");
    writeFileSync(policy, "version: 1\n");
    const r = await run(["--policy", policy, "--level", "enforce"], testEnv(), echo);
    expect(r.stdout).toContain('"id":0');
    expect(r.modules.some((u) => /\/node_modules\/yaml\//.test(u))).toBe(true);
    expect(r.modules.some((u) => /\/node_modules\/zod\//.test(u))).toBe(true);
  });

  for (const level of ["observe", "enforce"])
    it(`${level}: a server that exits at once ends the relay with its code`, async () => {
      const r = await run(["--level", level], testEnv(), [process.execPath, "-e", "process.exit(3)"]);
      expect(r.code).toBe(3);
    });

  it("observe: initialize is answered while the worker still loads its judges, and the worker logs it after", async () => {
    // A loader hook holds the worker's own module until a file exists: the relay must answer
    // without it (decision 0130). Before, the relay waited for the worker to be ready.
    const dir = tempDir("eg-start-held-");
    const release = join(dir, "release");
    const hook = join(dir, "hold.mjs");
    writeFileSync(
      hook,
      `import { register } from "node:module";\n` +
        `register("data:text/javascript," + encodeURIComponent(${JSON.stringify(
          `import { existsSync } from "node:fs";\n` +
            `export async function load(url, context, next) {\n` +
            `  if (url.endsWith("/shadow-worker.js"))\n` +
            `    while (!existsSync(${JSON.stringify(release)})) await new Promise((r) => setTimeout(r, 20));\n` +
            `  return next(url, context);\n}\n`,
        )}));\n`,
    );
    const logs = join(dir, "logs");
    const child = spawn(
      process.execPath,
      ["--import", hook, MAIN, "--level", "observe", "--log-dir", logs, "--", ...echo],
      { env: testEnv(), stdio: ["pipe", "pipe", "ignore"] },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const answered = await new Promise<boolean>((resolve) => {
      // Not a time limit on the relay: a relay that waits for the worker never answers, and the
      // test must end. Minutes are far beyond any start, however loaded the machine.
      const never = setTimeout(() => resolve(false), 120_000);
      let stdout = "";
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('"id":0')) {
          clearTimeout(never);
          resolve(true);
        }
      });
      child.stdin.write(INIT);
    });
    const heldUntilNow = !existsSync(release);
    writeFileSync(release, "");
    child.stdin.end();
    await exited;
    expect(answered).toBe(true);
    expect(heldUntilNow).toBe(true);
    const log = readdirSync(logs)
      .map((f) => readFileSync(join(logs, f), "utf8"))
      .join("");
    expect(log).toContain('"dir":"c2s"');
    expect(log).toContain('"dir":"s2c"');
    expect(log).toContain('"type":"exit"');
  }, 180_000);
});
