// npm run bench: effectgate's cost, side by side with a direct connection and a bare relay.
// Prints a table of ratios; numbers are for this machine and this run only.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const ECHO = join(here, "bench", "echo-server.mjs");
const BARE = join(here, "bench", "bare-relay.mjs");
const CLI = join(root, "dist", "main.js");
const SMALL_CALLS = Number(process.env.BENCH_SMALL_CALLS ?? 2000);
const LARGE_CALLS = Number(process.env.BENCH_LARGE_CALLS ?? 20);
const SMALL_ROUNDS = Number(process.env.BENCH_SMALL_ROUNDS ?? 5);
const LARGE_ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 3);
const MiB = 1024 * 1024;

const home = mkdtempSync(join(tmpdir(), "effectgate-bench-"));
// Figures move with the machine's load: every run says it, at the start and at the end.
const loadAtStart = loadavg()[0] ?? NaN;
/** Each target of issue 20 with what this run measured: printed together at the end. */
const targets = [];
const target = (name, measured, met) => targets.push({ name, measured, met });
const env = { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") };

const setups = {
  direct: ["node", [ECHO]],
  "bare relay": ["node", [BARE, "node", ECHO]],
  effectgate: ["node", [CLI, "--level", "observe", "--log-dir", join(home, "logs"), "--", "node", ECHO]],
};
// For the 4 MiB rows only: the default policy with content signatures off, to show what the taint
// scan costs apart from logging and judging (docs/decisions/0051-observe-keeps-the-full-scan.md).
const unscanned = join(home, "no-signatures.yaml");
writeFileSync(
  unscanned,
  readFileSync(join(root, "policy", "default.yaml"), "utf8").replace(/^(\s*signatures:) true\b/m, "$1 false"),
);
const everySetup = {
  ...setups,
  // The large rows at enforce too: the judges then run on the relay's own thread.
  "effectgate enforce": [
    "node",
    [CLI, "--level", "enforce", "--log-dir", join(home, "logs"), "--", "node", ECHO],
  ],
  "effectgate, no signatures": [
    "node",
    [CLI, "--level", "observe", "--policy", unscanned, "--log-dir", join(home, "logs"), "--", "node", ECHO],
  ],
};

/** A raw newline-framed client over a child's stdio. */
function connect(cmd, args) {
  const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"], env });
  const waiters = [];
  let parts = [];
  child.stdout.on("data", (chunk) => {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, i));
      const line = Buffer.concat(parts);
      parts = [];
      start = i + 1;
      waiters.shift()?.(line);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  const request = (frame) =>
    new Promise((resolve) => {
      waiters.push(resolve);
      child.stdin.write(frame);
    });
  const close = () =>
    new Promise((resolve) => {
      child.on("exit", resolve);
      child.stdin.end();
    });
  return { child, request, close };
}

function callFrame(id, text) {
  return (
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { text } },
    }) + "\n"
  );
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function start(name) {
  const [cmd, args] = everySetup[name];
  const c = connect(cmd, args);
  await c.request(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    }) + "\n",
  );
  c.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return c;
}

/** Small calls: p50 and p99 of one session. */
async function measureSmall(name) {
  const c = await start(name);
  const small = [];
  const smallText = "x".repeat(30); // the frame is about 100 bytes
  for (let i = 1; i <= SMALL_CALLS; i++) {
    const t0 = performance.now();
    await c.request(callFrame(i, smallText));
    if (i > 50) small.push(performance.now() - t0); // skip warm-up
  }
  small.sort((a, b) => a - b);
  await c.close();
  return { p50: pct(small, 50), p99: pct(small, 99) };
}

/**
 * 4 MiB of source code: effectgate's own runtime dependencies, file after file in path order
 * (repeated if short). Quotes and line breaks to escape, words for every scanner to read: a file
 * an agent might write. The repeated letter of the other rows is the cheapest text to scan.
 */
function codeText() {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|mjs|cjs|ts|md)$/.test(e.name)) files.push(p);
    }
  };
  // Dependencies that are installed (pino was one until decision 0075).
  for (const dep of ["yaml", "zod", "commander", "smol-toml", "pino"])
    if (existsSync(join(root, "node_modules", dep))) walk(join(root, "node_modules", dep));
  let text = files.map((f) => readFileSync(f, "utf8")).join("\n");
  if (text.length === 0) return undefined;
  while (text.length < 4 * MiB) text += text;
  return text.slice(0, 4 * MiB);
}

const code = codeText();
const codeFile = join(home, "code.txt");
if (code !== undefined) writeFileSync(codeFile, code);

async function measureLarge(name) {
  const c = await start(name);
  // Throughput, so the mean: a relay that pauses its sources while a worker catches up makes
  // every fourth call slow, which a median would not show.
  // Also the CPU the process in the middle spends per call (for `direct`, the server itself), once
  // it has gone quiet: at observe its worker may still be reading when the last answer arrives.
  // One answer is read by one thread, so this bounds its throughput on any number of cores.
  const cpu = {};
  const timeLarge = async (frame, text, key) => {
    const ticks0 = cpuTicks(c.child.pid);
    const t0 = performance.now();
    for (let i = 0; i < LARGE_CALLS; i++) await c.request(frame(100000 + i, text));
    const wall = (performance.now() - t0) / LARGE_CALLS;
    await settled(c.child.pid);
    cpu[key] = ((cpuTicks(c.child.pid) - ticks0) * MS_PER_TICK) / LARGE_CALLS;
    return wall;
  };
  const writeFile = (id, t) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "write_file", arguments: { path: "/home/user/project/big.txt", content: t } },
    }) + "\n";
  const letters = "y".repeat(4 * MiB);
  const big = await timeLarge(writeFile, letters, "big");
  const bigUnknown = await timeLarge(callFrame, letters, "bigUnknown");
  const bigCode = code === undefined ? NaN : await timeLarge(writeFile, code, "bigCode");
  // One large frame per round trip, each direction on its own: a big call answered briefly, and
  // a short call answered with 4 MiB (read from a file for the source code).
  const quiet = (id, t) => writeFile(id, t).replace('"content":', '"quiet":true,"content":');
  const answer = (args) => (id) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "read_file", arguments: args },
    }) + "\n";
  const callOnly = await timeLarge(quiet, letters, "callOnly");
  const callOnlyCode = code === undefined ? NaN : await timeLarge(quiet, code, "callOnlyCode");
  const answerOnly = await timeLarge(
    answer({ path: "/home/user/project/big.txt", fill: 4 * MiB }),
    undefined,
    "answerOnly",
  );
  const answerOnlyCode =
    code === undefined ? NaN : await timeLarge(answer({ file: codeFile }), undefined, "answerOnlyCode");
  await c.close();
  return { big, bigUnknown, bigCode, callOnly, callOnlyCode, answerOnly, answerOnlyCode, cpu };
}

/**
 * What one 64 MiB frame costs to cross: a call that carries it to the server (`c2s`, answered
 * briefly), a short call answered with it (`s2c`), and the same two made of many small elements
 * instead of one long string (`c2s-numbers`: an array of numbers; `s2c-items`: content items).
 */
function bigCall(dir, big) {
  const path = "/home/user/project/big.bin";
  if (dir === "c2s-numbers")
    // Built as text: an array of 32 million numbers would cost the bench more than the relay.
    return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"${path}","quiet":true,"rows":[${"1,".repeat(big / 2 - 1)}1]}}}\n`;
  const args = {
    c2s: { path, content: "z".repeat(big), quiet: true },
    s2c: { path, fill: big },
    "s2c-items": { path, items: big },
  }[dir];
  return (
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "write_file", arguments: args },
    }) + "\n"
  );
}

/** Linux counts CPU time in ticks of 10 ms (USER_HZ is 100 on every Linux architecture). */
const MS_PER_TICK = 10;

/**
 * CPU time (user + system, in clock ticks) a process has used so far, all its threads together;
 * NaN where there is no /proc (the CPU column then reads n/a).
 */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

/**
 * Waits until a process has used no CPU for a while: at observe the frame has gone on before its
 * worker is done reading it, and the peak may come after the answer.
 */
async function settled(pid) {
  let last = cpuTicks(pid);
  if (Number.isNaN(last)) return;
  for (let quiet = 0, waited = 0; quiet < 3 && waited < 20_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuTicks(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/** Peak RSS (VmHWM) of the process in the middle once one 64 MiB frame has crossed it. */
async function peakMemory(name, dir) {
  const [cmd, args] = setups[name];
  const c = connect(cmd, args);
  await c.request(bigCall(dir, 64 * MiB));
  let hwm = NaN;
  try {
    await settled(c.child.pid);
    const status = readFileSync(`/proc/${c.child.pid}/status`, "utf8");
    hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
  } catch {
    // not Linux: reported as n/a
  }
  await c.close();
  return hwm;
}

// Timings move with whatever else the machine does, so the setups take turns over several
// rounds and each reports its median round.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const inTurns = async (names, rounds, measure) => {
  const seen = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) for (const name of names) seen[name].push(await measure(name));
  return seen;
};
const small = await inTurns(Object.keys(setups), SMALL_ROUNDS, measureSmall);
const large = await inTurns(Object.keys(everySetup), LARGE_ROUNDS, measureLarge);
const results = {};
for (const name of Object.keys(everySetup)) {
  const mid = (rounds, key) => (rounds[name] ? median(rounds[name].map((x) => x[key])) : NaN);
  results[name] = {
    p50: mid(small, "p50"),
    p99: mid(small, "p99"),
    big: mid(large, "big"),
    bigUnknown: mid(large, "bigUnknown"),
    bigCode: mid(large, "bigCode"),
    callOnly: mid(large, "callOnly"),
    callOnlyCode: mid(large, "callOnlyCode"),
    answerOnly: mid(large, "answerOnly"),
    answerOnlyCode: mid(large, "answerOnlyCode"),
    cpu: Object.fromEntries(
      Object.keys(large[name]?.[0]?.cpu ?? {}).map((k) => [k, median(large[name].map((x) => x.cpu[k]))]),
    ),
  };
}
const SHAPES = ["c2s", "s2c", "c2s-numbers", "s2c-items"];
const mem = { "bare relay": {}, effectgate: {} };
for (const name of Object.keys(mem)) for (const dir of SHAPES) mem[name][dir] = await peakMemory(name, dir);

const d = results.direct,
  b = results["bare relay"],
  e = results.effectgate;
const added = (x) => x.p50 - d.p50;
const rows = [
  ["small call p50 (ms)", d.p50, b.p50, e.p50],
  ["small call p99 (ms)", d.p99, b.p99, e.p99],
  ["4 MiB round trip mean, write_file content echoed back (ms)", d.big, b.big, e.big],
  ["4 MiB round trip mean, an unknown tool's string (ms)", d.bigUnknown, b.bigUnknown, e.bigUnknown],
  ["4 MiB round trip mean, write_file of source code echoed back (ms)", d.bigCode, b.bigCode, e.bigCode],
  ["4 MiB call, short answer mean, letters (ms)", d.callOnly, b.callOnly, e.callOnly],
  ["4 MiB call, short answer mean, source code (ms)", d.callOnlyCode, b.callOnlyCode, e.callOnlyCode],
  ["short call, 4 MiB answer mean, letters (ms)", d.answerOnly, b.answerOnly, e.answerOnly],
  ["short call, 4 MiB answer mean, source code (ms)", d.answerOnlyCode, b.answerOnlyCode, e.answerOnlyCode],
];
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(3) : "n/a");
const x = (r) => `${r.toFixed(2)}×`;
target(
  "small call: added p50 latency ≤ 1.3× the bare relay's",
  x(added(e) / added(b)),
  added(e) / added(b) <= 1.3,
);
for (const [key, what] of [
  ["answerOnly", "letters"],
  ["answerOnlyCode", "source code"],
])
  for (const [level, r] of [
    ["observe", e],
    ["enforce", results["effectgate enforce"]],
  ])
    target(
      `short call, 4 MiB answer (${what}) at ${level}: ≤ 1.2× the bare relay`,
      x(r[key] / b[key]),
      r[key] / b[key] <= 1.2,
    );
console.log(
  `effectgate bench — ${SMALL_CALLS} small calls × ${SMALL_ROUNDS} rounds, ${LARGE_CALLS} × 4 MiB × ${LARGE_ROUNDS} rounds (setups take turns; median round), node ${process.version}\n`,
);
console.log("| measure | direct | bare relay | effectgate | effectgate / bare |");
console.log("|---|---|---|---|---|");
for (const [label, x, y, z] of rows)
  console.log(`| ${label} | ${fmt(x)} | ${fmt(y)} | ${fmt(z)} | ${(z / y).toFixed(2)}× |`);
console.log(
  `| added p50 latency over direct (ms) | — | ${fmt(added(b))} | ${fmt(added(e))} | ${(added(e) / added(b)).toFixed(2)}× (target ≤ 1.3×) |`,
);
console.log(
  `| 4 MiB echoed round trip vs bare relay, letters / source code | — | — | — | ${(e.big / b.big).toFixed(2)}× / ${(e.bigCode / b.bigCode).toFixed(2)}× (target ≤ 1.2×) |`,
);
const ratios = (keys) => keys.map((k) => `${(e[k] / b[k]).toFixed(2)}×`).join(" / ");
console.log(
  `| one 4 MiB frame per round trip vs bare relay: call letters / code, answer letters / code | — | — | — | ${ratios(["callOnly", "callOnlyCode", "answerOnly", "answerOnlyCode"])} |`,
);
const en = results["effectgate enforce"];
console.log(
  `| at enforce: 4 MiB echoed letters / code / unknown tool, answer letters / code, vs bare relay | — | — | ${fmt(en.big)} / ${fmt(en.bigCode)} / ${fmt(en.bigUnknown)} / ${fmt(en.answerOnly)} / ${fmt(en.answerOnlyCode)} | ${["big", "bigCode", "bigUnknown", "answerOnly", "answerOnlyCode"].map((k) => `${(en[k] / b[k]).toFixed(2)}×`).join(" / ")} |`,
);
const n = results["effectgate, no signatures"];
console.log(
  `| the echoed rows with content signatures off (ms, letters / source code) | — | — | ${fmt(n.big)} / ${fmt(n.bigCode)} | ${(n.big / b.big).toFixed(2)}× / ${(n.bigCode / b.bigCode).toFixed(2)}× |`,
);
// What one large call costs the process in the middle in CPU, all threads: for effectgate a
// lower bound on its time per call however many cores there are, since one thread reads a frame.
const cpuRows = [
  ["4 MiB write_file echoed back, letters / source code", "big", "bigCode"],
  ["4 MiB call, short answer, letters / source code", "callOnly", "callOnlyCode"],
  ["short call, 4 MiB answer, letters / source code", "answerOnly", "answerOnlyCode"],
];
const cpuOf = (name, a, b) => `${fmt(results[name].cpu[a])} / ${fmt(results[name].cpu[b])}`;
console.log(
  `\n| CPU per call of the process in the middle, ms (direct: the server; ${availableParallelism()} cores) | direct | bare relay | effectgate | effectgate, no signatures |`,
);
console.log("|---|---|---|---|---|");
for (const [label, a, b] of cpuRows)
  console.log(
    `| ${label} | ${cpuOf("direct", a, b)} | ${cpuOf("bare relay", a, b)} | ${cpuOf("effectgate", a, b)} | ${cpuOf("effectgate, no signatures", a, b)} |`,
  );
console.log("");

const frame = 64 * MiB;
const shapeNames = {
  c2s: "one 64 MiB frame c2s",
  s2c: "one 64 MiB frame s2c",
  "c2s-numbers": "one 64 MiB frame c2s, 32 Mi numbers",
  "s2c-items": "one 64 MiB frame s2c, 1.7 Mi small items",
};
for (const dir of SHAPES)
  console.log(
    `| peak RSS, ${shapeNames[dir]} (MiB) | — | ${fmt(mem["bare relay"][dir] / MiB)} | ${fmt(mem.effectgate[dir] / MiB)} | ${(mem.effectgate[dir] / frame).toFixed(2)}× frame (target < 4×) |`,
  );
const worstMemory = Math.max(...SHAPES.map((dir) => mem.effectgate[dir] / frame));
target(
  "peak RSS, one 64 MiB frame, worst shape, at observe: < 4× the frame",
  x(worstMemory),
  worstMemory < 4,
);

// Start-up: spawn to the answer of initialize at every level, and the short commands (issue 20).
for (const t of await (await import(join(here, "bench", "startup.mjs"))).run({ root, env })) targets.push(t);

const extras = await import(join(here, "bench", "extra-rows.mjs")).catch(() => undefined);
if (extras) for (const t of await extras.run({ root, env, home })) targets.push(t);

console.log(
  `\n| target (issue 20) | measured | met? |\n|---|---|---|\n${targets.map((t) => `| ${t.name} | ${t.measured} | ${t.met ? "met" : "missed"} |`).join("\n")}`,
);
console.log(
  `\nLoad average (1 min) at the start ${loadAtStart.toFixed(2)}, at the end ${(loadavg()[0] ?? NaN).toFixed(2)}, on ${availableParallelism()} cores: figures from a loaded machine are not quiet-machine figures.`,
);

rmSync(home, { recursive: true, force: true });
