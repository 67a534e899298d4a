// One client session through the built relay (dist/main.js) in front of the recording fixture
// tests/fixtures/servers/scripted-answers.mjs, for the third-party suite adapters. What counts
// is what the fixture recorded: the calls that reached the server, never the relay's words.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const ROOT = join(import.meta.dirname, "..", "..");
const MAIN = join(ROOT, "dist", "main.js");
const FIXTURE = join(ROOT, "tests", "fixtures", "servers", "scripted-answers.mjs");
/** The levels an adapter runs; `off` is EFFECTGATE_OFF=1, the floor a bare relay gives. */
export const LEVELS = ["observe", "enforce", "strict", "off"];
/** How long a client waits for one answer. A held question at strict without elicitation is refused at once, so this only bounds a hang. */
const ANSWER_MS = 20_000;

/** A scripted-answers rule that answers `method` (and tool `name`) with `result`. */
export function answerRule(method, result, extra = {}) {
  const line = JSON.stringify({ jsonrpc: "2.0", id: "__ID__", result }).replace('"__ID__"', "$ID");
  return { method, ...extra, reply: line };
}

/** A tools/list rule offering `tools`, and its initialize rule declaring what the server offers. */
export function serverRules({ tools = [], resources, drift = [] }) {
  const capabilities = { tools: { listChanged: true }, ...(resources ? { resources: {} } : {}) };
  return [
    answerRule("initialize", {
      protocolVersion: "2025-06-18",
      capabilities,
      serverInfo: { name: "third-party-case", version: "1" },
    }),
    // Drifted answers first: a rule with `after` only matches once enough listings came.
    ...drift,
    answerRule("tools/list", { tools }),
    ...(resources
      ? [
          answerRule("resources/list", { resources }),
          answerRule("resources/templates/list", { resourceTemplates: [] }),
        ]
      : []),
  ];
}

function exitOf(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/**
 * Runs `steps` (JSON-RPC messages a client sends, in order, each awaited when it has an id)
 * through `effectgate --level LEVEL` (or EFFECTGATE_OFF=1 for `off`) in front of a fixture
 * answering by `rules`. With `approveFirst`, `effectgate approve` pins what the server offers at
 * start (answering by `approveRules`, else `rules`) and the relay runs with that lock.
 * Returns the tools/call and resources/read requests that reached the server, and every line
 * the client received.
 */
export async function runSession({ level, rules, steps, approveFirst = false, approveRules, home }) {
  const dir = mkdtempSync(join(tmpdir(), "eg-third-party-"));
  try {
    for (const d of ["home", "eg", "logs"]) mkdirSync(join(dir, d));
    const script = join(dir, "script.json");
    const record = join(dir, "record.jsonl");
    // `home` is the suites' user folder (/home/user): their paths name it, and only what ~ means
    // is taken from it. effectgate's own state lives in EFFECTGATE_HOME, here, never there.
    const env = {
      ...process.env,
      HOME: home ?? join(dir, "home"),
      EFFECTGATE_HOME: join(dir, "eg"),
      RECORD_FILE: record,
    };
    delete env.EFFECTGATE_OFF;
    const server = ["node", FIXTURE, script];
    const lockArgs = [];
    if (approveFirst) {
      // approve probes the server as it starts: the baseline a user would have approved.
      writeFileSync(script, JSON.stringify({ rules: approveRules ?? rules }));
      const lock = join(dir, "effectgate.lock");
      const probe = spawn(
        process.execPath,
        [MAIN, "approve", "--lock", lock, "--name", "case", "--", ...server],
        {
          env: { ...env, RECORD_FILE: join(dir, "approve.jsonl") },
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      let err = "";
      probe.stderr.on("data", (b) => (err += b));
      const code = await exitOf(probe);
      if (code !== 0) throw new Error(`effectgate approve exited ${code}: ${err.trim()}`);
      lockArgs.push("--lock", lock, "--name", "case");
    }
    writeFileSync(script, JSON.stringify({ rules }));
    const args = [MAIN, "--log-dir", join(dir, "logs"), ...lockArgs];
    if (level === "off") env.EFFECTGATE_OFF = "1";
    else args.push("--level", level);
    const child = spawn(process.execPath, [...args, "--", ...server], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stderr.resume();
    const received = [];
    const waiting = new Map();
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
      received.push(line);
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg && typeof msg === "object" && "id" in msg && !("method" in msg)) {
        const key = JSON.stringify(msg.id);
        waiting.get(key)?.(msg);
        waiting.delete(key);
      }
    });
    const send = (msg) => {
      if (!("id" in msg)) {
        child.stdin.write(JSON.stringify(msg) + "\n");
        return Promise.resolve(undefined);
      }
      const answered = new Promise((resolve) => {
        waiting.set(JSON.stringify(msg.id), resolve);
        setTimeout(() => resolve(undefined), ANSWER_MS).unref();
      });
      child.stdin.write(JSON.stringify(msg) + "\n");
      return answered;
    };
    const answers = [];
    await send({
      jsonrpc: "2.0",
      id: "adapter-init",
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "third-party-adapter", version: "1" },
      },
    });
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (const step of steps) answers.push({ step, answer: await send(step) });
    child.stdin.end();
    await exitOf(child);
    const reached = existsSync(record)
      ? readFileSync(record, "utf8")
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l))
          .filter((m) => m.method === "tools/call" || m.method === "resources/read")
      : [];
    return { reached, answers, received };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the server recorded a request with this method and params (the same JSON). */
export function didReach(reached, step) {
  const want = JSON.stringify([step.method, step.params]);
  return reached.some((m) => JSON.stringify([m.method, m.params]) === want);
}
