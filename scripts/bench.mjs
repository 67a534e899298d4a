// npm run bench: effectgate's cost, side by side with a direct connection and a bare relay.
// Prints a table of ratios; numbers are for this machine and this run only.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Command, InvalidArgumentError } from "commander";
import { codeText } from "./bench/code-text.mjs";

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

/** The parts of the bench, in the order they run; `--only` picks some of them. */
const PARTS = {
  small: "small-call latency (p50, p99) against direct and the bare relay",
  answers: "4 MiB calls and answers, at observe and enforce, with their CPU",
  memory: "peak RSS while one 64 MiB frame crosses, four shapes",
  startup: "spawn → initialize answer at every level; `version`, `check` times",
  decision: "one decision's cost, pattern lookups, and the command judge",
  soak: "100,000 calls at enforce: calls/s, RSS, none lost in the log",
};
const cli = new Command("bench")
  .description(
    "effectgate's cost, side by side with a direct connection and a bare relay.\n\nParts:\n" +
      Object.entries(PARTS)
        .map(([name, what]) => `  ${name.padEnd(9)} ${what}`)
        .join("\n") +
      "\n\nBENCH_OLD_CLI=<other build's dist/main.js> runs that build in the same turns (answers, startup, decision).",
  )
  .option("--only <parts>", "run only these parts, comma-separated (default: all)", (value) => {
    const picked = value.split(",").map((p) => p.trim());
    const unknown = picked.filter((p) => !(p in PARTS));
    if (unknown.length > 0 || picked.length === 0)
      throw new InvalidArgumentError(
        `unknown part ${unknown.join(", ")}; expected some of ${Object.keys(PARTS).join(", ")}`,
      );
    return new Set(picked);
  })
  .parse();
const only = cli.opts().only;
const wants = (part) => only === undefined || only.has(part);
/** Another build to measure in the same turns as this one, when given. */
const OLD_CLI = process.env.BENCH_OLD_CLI;

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
  // The other build's large rows in the same turns, so that two builds are compared in the same minutes.
  ...(OLD_CLI === undefined
    ? {}
    : {
        "effectgate (old build)": [
          "node",
          [OLD_CLI, "--level", "observe", "--log-dir", join(home, "logs"), "--", "node", ECHO],
        ],
        "effectgate enforce (old build)": [
          "node",
          [OLD_CLI, "--level", "enforce", "--log-dir", join(home, "logs"), "--", "node", ECHO],
        ],
      }),
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

const code = codeText(root);
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
  const [cmd, args] = memorySetups[name];
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

// The memory rows at every level: at enforce and strict the relay's own thread reads the frame.
const memorySetups = {
  "bare relay": setups["bare relay"],
  ...Object.fromEntries(
    ["observe", "enforce", "strict"].map((level) => [
      `effectgate ${level}`,
      ["node", [CLI, "--level", level, "--log-dir", join(home, "logs"), "--", "node", ECHO]],
    ]),
  ),
};

// Timings move with whatever else the machine does, so the setups take turns over several
// rounds and each reports its median round.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const inTurns = async (names, rounds, measure) => {
  const seen = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) for (const name of names) seen[name].push(await measure(name));
  return seen;
};
const results = {};
const roundsOf = (small, large) => {
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
};
const small = wants("small") ? await inTurns(Object.keys(setups), SMALL_ROUNDS, measureSmall) : {};
const large = wants("answers") ? await inTurns(Object.keys(everySetup), LARGE_ROUNDS, measureLarge) : {};
roundsOf(small, large);
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(3) : "n/a");
const x = (r) => `${r.toFixed(2)}×`;
const d = results.direct,
  b = results["bare relay"],
  e = results.effectgate;
const added = (r) => r.p50 - d.p50;
console.log(
  `effectgate bench — parts: ${Object.keys(PARTS).filter(wants).join(", ")}; ${SMALL_CALLS} small calls × ${SMALL_ROUNDS} rounds, ${LARGE_CALLS} × 4 MiB × ${LARGE_ROUNDS} rounds (setups take turns; median round), node ${process.version}\n`,
);

if (wants("small")) {
  target(
    "small call: added p50 latency ≤ 1.3× the bare relay's",
    x(added(e) / added(b)),
    added(e) / added(b) <= 1.3,
  );
  console.log("| measure | direct | bare relay | effectgate | effectgate / bare |");
  console.log("|---|---|---|---|---|");
  for (const [label, key] of [
    ["small call p50 (ms)", "p50"],
    ["small call p99 (ms)", "p99"],
  ])
    console.log(
      `| ${label} | ${fmt(d[key])} | ${fmt(b[key])} | ${fmt(e[key])} | ${(e[key] / b[key]).toFixed(2)}× |`,
    );
  console.log(
    `| added p50 latency over direct (ms) | — | ${fmt(added(b))} | ${fmt(added(e))} | ${(added(e) / added(b)).toFixed(2)}× (target ≤ 1.3×) |`,
  );
}

if (wants("answers")) largeRows();

function largeRows() {
  const rows = [
    ["4 MiB round trip mean, write_file content echoed back (ms)", "big"],
    ["4 MiB round trip mean, an unknown tool's string (ms)", "bigUnknown"],
    ["4 MiB round trip mean, write_file of source code echoed back (ms)", "bigCode"],
    ["4 MiB call, short answer mean, letters (ms)", "callOnly"],
    ["4 MiB call, short answer mean, source code (ms)", "callOnlyCode"],
    ["short call, 4 MiB answer mean, letters (ms)", "answerOnly"],
    ["short call, 4 MiB answer mean, source code (ms)", "answerOnlyCode"],
  ];
  const levels = [
    ["observe", "effectgate"],
    ["enforce", "effectgate enforce"],
  ];
  if (OLD_CLI !== undefined)
    levels.push(
      ["observe, old build", "effectgate (old build)"],
      ["enforce, old build", "effectgate enforce (old build)"],
    );
  for (const [key, what] of [
    ["answerOnly", "letters"],
    ["answerOnlyCode", "source code"],
  ])
    for (const [level, name] of levels) {
      const r = results[name];
      target(
        `short call, 4 MiB answer (${what}) at ${level}: ≤ 1.2× the bare relay`,
        x(r[key] / b[key]),
        r[key] / b[key] <= 1.2,
      );
    }
  console.log("\n| measure | direct | bare relay | effectgate | effectgate / bare |");
  console.log("|---|---|---|---|---|");
  for (const [label, key] of rows)
    console.log(
      `| ${label} | ${fmt(d[key])} | ${fmt(b[key])} | ${fmt(e[key])} | ${(e[key] / b[key]).toFixed(2)}× |`,
    );
  console.log(
    `| 4 MiB echoed round trip vs bare relay, letters / source code | — | — | — | ${(e.big / b.big).toFixed(2)}× / ${(e.bigCode / b.bigCode).toFixed(2)}× (target ≤ 1.2×) |`,
  );
  const ratios = (r, keys) => keys.map((k) => `${(r[k] / b[k]).toFixed(2)}×`).join(" / ");
  console.log(
    `| one 4 MiB frame per round trip vs bare relay: call letters / code, answer letters / code | — | — | — | ${ratios(e, ["callOnly", "callOnlyCode", "answerOnly", "answerOnlyCode"])} |`,
  );
  const atEnforce = ["big", "bigCode", "bigUnknown", "answerOnly", "answerOnlyCode"];
  for (const [label, name] of [
    ["at enforce", "effectgate enforce"],
    ["old build, observe", "effectgate (old build)"],
    ["old build, enforce", "effectgate enforce (old build)"],
  ]) {
    const r = results[name];
    if (!(name in large)) continue;
    console.log(
      `| ${label}: 4 MiB echoed letters / code / unknown tool, answer letters / code, vs bare relay | — | — | ${atEnforce.map((k) => fmt(r[k])).join(" / ")} | ${ratios(r, atEnforce)} |`,
    );
  }
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
  const cpuNames = Object.keys(everySetup);
  const cpuOf = (name, a, c) => `${fmt(results[name].cpu[a])} / ${fmt(results[name].cpu[c])}`;
  console.log(
    `\n| CPU per call of the process in the middle, ms (direct: the server; ${availableParallelism()} cores) | ${cpuNames.join(" | ")} |`,
  );
  console.log(`|---|${cpuNames.map(() => "---|").join("")}`);
  for (const [label, a, c] of cpuRows)
    console.log(`| ${label} | ${cpuNames.map((name) => cpuOf(name, a, c)).join(" | ")} |`);
  console.log("");
}

if (wants("memory")) {
  const SHAPES = ["c2s", "s2c", "c2s-numbers", "s2c-items"];
  const levels = ["observe", "enforce", "strict"];
  const mem = Object.fromEntries(Object.keys(memorySetups).map((name) => [name, {}]));
  for (const name of Object.keys(mem)) for (const dir of SHAPES) mem[name][dir] = await peakMemory(name, dir);
  const frame = 64 * MiB;
  const shapeNames = {
    c2s: "one 64 MiB frame c2s",
    s2c: "one 64 MiB frame s2c",
    "c2s-numbers": "one 64 MiB frame c2s, 32 Mi numbers",
    "s2c-items": "one 64 MiB frame s2c, 1.7 Mi small items",
  };
  for (const level of levels)
    for (const dir of SHAPES)
      console.log(
        `| peak RSS, ${shapeNames[dir]}, ${level} (MiB) | — | ${fmt(mem["bare relay"][dir] / MiB)} | ${fmt(mem[`effectgate ${level}`][dir] / MiB)} | ${(mem[`effectgate ${level}`][dir] / frame).toFixed(2)}× frame (target < 4×) |`,
      );
  for (const level of levels) {
    const worst = Math.max(...SHAPES.map((dir) => mem[`effectgate ${level}`][dir] / frame));
    target(`peak RSS, one 64 MiB frame, worst shape, at ${level}: < 4× the frame`, x(worst), worst < 4);
  }
}

// Start-up: spawn to the answer of initialize at every level, and the short commands (issue 20).
if (wants("startup"))
  for (const t of await (await import(join(here, "bench", "startup.mjs"))).run({ root, env }))
    targets.push(t);

if (wants("decision") || wants("soak")) {
  const extras = await import(join(here, "bench", "extra-rows.mjs"));
  const parts = { decision: wants("decision"), soak: wants("soak") };
  for (const t of await extras.run({ root, env, home, parts, oldCli: OLD_CLI })) targets.push(t);
}

console.log(
  `\n| target (issue 20) | measured | met? |\n|---|---|---|\n${targets.map((t) => `| ${t.name} | ${t.measured} | ${t.met ? "met" : "missed"} |`).join("\n")}`,
);
console.log(
  `\nLoad average (1 min) at the start ${loadAtStart.toFixed(2)}, at the end ${(loadavg()[0] ?? NaN).toFixed(2)}, on ${availableParallelism()} cores: figures from a loaded machine are not quiet-machine figures.`,
);

rmSync(home, { recursive: true, force: true });
