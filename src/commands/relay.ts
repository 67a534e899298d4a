/**
 * `effectgate [--policy P] [--level L] [--lock F] [--log-dir D] [--name N] -- CMD ARGS…`
 * Parses the options, reads EFFECTGATE_OFF before any file is opened, builds the gate, opens the
 * session log and hands process.stdin/stdout to the relay.
 */
import { defaultSessionsDir } from "../log/reader.js";
import { CannotStartError, EXIT, UsageError } from "../core/errors.js";
import { nothingRefused } from "../core/gate/gate.js";
import { parseLevel } from "../core/gate/levels.js";
import type { Level } from "../core/types.js";
import { openSessionLog, type SessionLog } from "../log/writer.js";
import { buildGate } from "../relay/gates/build-gates.js";
import { isOffValue } from "../relay/gates/off-switch.js";
import { runRelay } from "../relay/session/relay.js";
import { startShadow, type Shadow } from "../relay/session/worker-frames.js";
import { MAX_FRAME_BYTES } from "../core/framing/line-splitter.js";
import { VERSION } from "../version.js";

export interface RelayArgs {
  policy?: string;
  level?: Level;
  lock?: string;
  logDir?: string;
  name?: string;
  server: string[];
}

const VALUE_OPTIONS = new Set(["--policy", "--level", "--lock", "--log-dir", "--name"]);

export function parseRelayArgs(args: readonly string[]): RelayArgs {
  const out: RelayArgs = { server: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") break;
    const eq = word.indexOf("=");
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (!VALUE_OPTIONS.has(flag)) {
      throw new UsageError(
        `unknown option "${word}"; expected one of ${[...VALUE_OPTIONS].join(", ")} before -- CMD [ARGS...]`,
      );
    }
    let value: string | undefined;
    if (eq > 0) value = word.slice(eq + 1);
    else value = args[++i];
    if (value === undefined || value === "--") throw new UsageError(`${flag}: expected a value, got nothing`);
    if (flag === "--level") {
      const level = parseLevel(value);
      if (!level) throw new UsageError(`--level: expected observe, enforce or strict, got "${value}"`);
      out.level = level;
    } else if (flag === "--policy") out.policy = value;
    else if (flag === "--lock") out.lock = value;
    else if (flag === "--log-dir") out.logDir = value;
    else out.name = value;
  }
  if (i >= args.length)
    throw new UsageError(
      "expected -- followed by the server command, e.g. effectgate -- npx -y @modelcontextprotocol/server-filesystem ~/work",
    );
  out.server = args.slice(i + 1);
  if (out.server.length === 0 || out.server[0] === "")
    throw new UsageError("expected a server command after --, got nothing");
  return out;
}

export function sessionDir(logDir: string | undefined, env: NodeJS.ProcessEnv): string {
  return logDir ? logDir : defaultSessionsDir(env);
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseRelayArgs(args);
  // Read before any configuration file is opened, so a broken policy cannot block "off".
  const off = isOffValue(process.env.EFFECTGATE_OFF);
  const warn = (line: string): void => {
    process.stderr.write(`effectgate: ${line}\n`);
  };
  if (off) warn("EFFECTGATE_OFF is set: relaying with no checks at all (calls are logged, not judged)");
  const cwd = process.cwd();
  const gateOptions = {
    ...(parsed.policy !== undefined ? { policy: parsed.policy } : {}),
    ...(parsed.level !== undefined ? { level: parsed.level } : {}),
    ...(parsed.lock !== undefined ? { lock: parsed.lock } : {}),
    ...(parsed.name !== undefined ? { name: parsed.name } : {}),
    serverArgv: parsed.server,
    cwd,
    off,
  };
  const built = await buildGate(gateOptions);
  const logDir = sessionDir(parsed.logDir, process.env);
  const name = parsed.name ?? null;
  const header = {
    effectgate: VERSION,
    argv: args,
    server: parsed.server,
    name,
    cwd,
    pid: process.pid,
    platform: process.platform,
  };
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  // When nothing can be refused, a worker thread reads the frames and the log is its own
  // (docs/decisions/0050-observe-work-in-a-worker.md); otherwise everything happens here.
  const shadow: Shadow | null = nothingRefused(built.gate)
    ? await startShadow(
        {
          gate: gateOptions,
          level: built.level,
          log: { dir: logDir, name },
          header,
          maxFrameBytes: MAX_FRAME_BYTES,
        },
        say,
      )
    : null;
  const local = shadow ? null : openSessionLog({ dir: logDir, name, warn: say });
  local?.header({ ...header, level: built.level, from: built.from, policy: built.policy, lock: built.lock });
  const log = shadow ? shadow.log : (local as SessionLog);
  try {
    const result = await runRelay({
      serverArgv: parsed.server,
      input: process.stdin,
      output: process.stdout,
      errorOutput: process.stderr,
      gate: built.gate,
      log,
      env: process.env,
      envDeny: built.envDeny,
      cwd,
      forwardSignals: true,
      ...(shadow ? { frames: shadow.frames } : {}),
    });
    return result.exitCode;
  } catch (err) {
    log.event("cannot-start", { error: err instanceof Error ? err.message : String(err) });
    if (err instanceof CannotStartError)
      log.exit({ code: null, signal: null, exitCode: EXIT.cannotStart, counts: {} });
    throw err;
  } finally {
    if (shadow) await shadow.close();
    local?.close();
  }
}
