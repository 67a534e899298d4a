// Start-up rows of `npm run bench` (issue 20): how long a client waits from spawning a server to
// the answer of `initialize`, direct and through effectgate at each level and with EFFECTGATE_OFF,
// and how long `effectgate version` and `effectgate check` take next to `node -e 0`.
// Setups take turns start after start, so that a load change hits them all alike; p50 of each.
//
// Alone: `node scripts/bench/startup.mjs`. BENCH_OLD_CLI=<other build's dist/main.js> adds that
// build's rows to the same turns, to compare two builds in the same minutes.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ECHO = join(here, "echo-server.mjs");
const BARE = join(here, "bare-relay.mjs");
const STARTS = Number(process.env.BENCH_STARTS ?? 20);
/** The target: at most this much later than the direct server, at the median. */
const TARGET_ADDED_MS = 50;

const INITIALIZE =
  JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  }) + "\n";

/** Milliseconds from spawn to the first line on stdout (the answer to `initialize`). */
function timeToInitialize(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "ignore"], env });
    let took = NaN;
    child.stdout.on("data", (chunk) => {
      if (Number.isNaN(took) && chunk.includes(10)) {
        took = performance.now() - t0;
        child.stdin.end();
      }
    });
    // Written at once, as clients do: a relay that is not ready yet finds it in the pipe.
    child.stdin.write(INITIALIZE);
    child.on("error", reject);
    child.on("exit", () =>
      Number.isNaN(took) ? reject(new Error(`${args.join(" ")}: no answer`)) : resolve(took),
    );
  });
}

/** Milliseconds from spawn to exit of a command that needs no input. */
function timeToExit(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "ignore"], env });
    child.on("error", reject);
    child.on("exit", () => resolve(performance.now() - t0));
  });
}

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");

export async function run({ root, env: given }) {
  const home = mkdtempSync(join(tmpdir(), "effectgate-bench-start-"));
  const env = { ...given, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") };
  const builds = [["", join(root, "dist", "main.js")]];
  if (process.env.BENCH_OLD_CLI) builds.push([" (old build)", process.env.BENCH_OLD_CLI]);
  const logs = join(home, "logs");
  const relayed = [];
  for (const [tag, cli] of builds) {
    const through = (extra) => ["node", [cli, ...extra, "--log-dir", logs, "--", "node", ECHO]];
    relayed.push(
      [`effectgate observe${tag}`, ...through(["--level", "observe"]), env],
      [`effectgate enforce${tag}`, ...through(["--level", "enforce"]), env],
      [`effectgate strict${tag}`, ...through(["--level", "strict"]), env],
      [`EFFECTGATE_OFF=1${tag}`, ...through([]), { ...env, EFFECTGATE_OFF: "1" }],
    );
  }
  const starts = [
    ["direct", "node", [ECHO], env],
    ["bare relay", "node", [BARE, "node", ECHO], env],
    ...relayed,
  ];
  const commands = [["node -e 0", "node", ["-e", "0"]]];
  for (const [tag, cli] of builds)
    commands.push(
      [`effectgate version${tag}`, "node", [cli, "version"]],
      [
        `effectgate check${tag}`,
        "node",
        [cli, "check", "--tool", "write_file", "--args", '{"path":"~/.bashrc"}'],
      ],
    );

  const seen = Object.fromEntries([...starts, ...commands].map(([name]) => [name, []]));
  // One start of each, unmeasured: the first start of a file pays for the disk cache.
  for (const [, cmd, args, e] of starts) await timeToInitialize(cmd, args, e);
  for (let i = 0; i < STARTS; i++) {
    for (const [name, cmd, args, e] of starts) seen[name].push(await timeToInitialize(cmd, args, e));
    for (const [name, cmd, args] of commands) seen[name].push(await timeToExit(cmd, args, env));
  }
  rmSync(home, { recursive: true, force: true });

  const direct = p50(seen.direct);
  console.log(
    `\n| start-up, p50 of ${STARTS} starts taking turns (ms) | p50 | added over direct | added over the bare relay | target: added over direct ≤ ${TARGET_ADDED_MS} ms |`,
  );
  console.log("|---|---|---|---|---|");
  // The bare relay's own distance from direct is what any relay written in Node pays: one more
  // Node start. The column beside it is what effectgate adds on top of that.
  const bareRelay = p50(seen["bare relay"]);
  for (const [name] of starts) {
    const mid = p50(seen[name]);
    const added = mid - direct;
    const verdict = name === "direct" ? "—" : added <= TARGET_ADDED_MS ? "met" : "missed";
    const overBare = name === "direct" || name === "bare relay" ? "—" : fmt(mid - bareRelay);
    console.log(
      `| spawn → initialize answer, ${name} | ${fmt(mid)} | ${name === "direct" ? "—" : fmt(added)} | ${overBare} | ${verdict} |`,
    );
  }
  const targets = [];
  for (const [name] of relayed) {
    if (name.includes("(old build)")) continue;
    const added = p50(seen[name]) - direct;
    targets.push({
      name: `start-up, ${name}: ≤ ${TARGET_ADDED_MS} ms over direct (over the bare relay: ${fmt(p50(seen[name]) - bareRelay)} ms; the bare relay alone: ${fmt(bareRelay - direct)} ms)`,
      measured: `${fmt(added)} ms`,
      met: added <= TARGET_ADDED_MS,
    });
    // The target as decision 0122 proposes it: what effectgate adds over any Node relay.
    const overBare = p50(seen[name]) - bareRelay;
    targets.push({
      name: `start-up, ${name}: ≤ ${TARGET_ADDED_MS} ms over the bare relay (proposed, decision 0122)`,
      measured: `${fmt(overBare)} ms`,
      met: overBare <= TARGET_ADDED_MS,
    });
  }
  const bare = p50(seen["node -e 0"]);
  console.log("\n| command wall time, p50 (ms) | p50 | / node -e 0 |");
  console.log("|---|---|---|");
  for (const [name] of commands)
    console.log(`| ${name} | ${fmt(p50(seen[name]))} | ${(p50(seen[name]) / bare).toFixed(2)}× |`);
  return targets;
}

// Run alone: `node scripts/bench/startup.mjs`.
if (process.argv[1] === fileURLToPath(import.meta.url))
  await run({ root: join(here, "..", ".."), env: process.env });
