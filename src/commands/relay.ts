/**
 * `effectgate [--policy P] [--level L] [--lock F] [--log-dir D] [--name N] -- CMD ARGS…`
 * `effectgate [same options] --url URL [--header 'Name: value']… [--transport auto|http|sse]`
 * Declares the options (parsed by src/commands/cli/), reads EFFECTGATE_OFF before any file is opened, builds the gate, opens the
 * session log and hands process.stdin/stdout to the relay. With `--url` the relay's server is
 * the HTTP bridge (src/relay/remote/), loaded only then.
 */
import { keepSetting, pruneSessions } from "../log/retention.js";
import { defaultSessionsDir } from "../log/naming.js";
import { CannotStartError, ConfigError, EXIT, formatProblem, UsageError } from "../core/errors.js";
import type { Level } from "../core/types.js";
import type { SessionLog } from "../log/writer.js";
import { hasEarlierSession } from "../log/earlier-session.js";
import { observeNotice, RELAY_HOW_TO_ENFORCE } from "../core/gate/observe-notice.js";
import { isOffValue, OFF_SETTINGS } from "../relay/gates/off-switch.js";
import { signalServer, startServer } from "../relay/process/spawn-server.js";
import type { StartupFailure } from "../core/wire/startup-answer.js";
import { askTimeoutMs } from "../relay/session/constants.js";
import { VERSION } from "../version.js";
import type { AskStore } from "../relay/client/ask-store.js";
import type { DesktopAsker } from "../relay/client/desktop-ask.js";
import { currentPlatform } from "../platform/profile.js";
import { offeredAsk } from "../core/gate/ask-channel.js";
import { identityFor } from "../core/pins/identity.js";
import { effectgateHome } from "../platform/home.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { parseCommand } from "./cli/parse.js";
import { dialogOption, levelOption, policyOption } from "./cli/values.js";
import type { DialogSetting } from "../relay/client/desktop-ask.js";
import { remoteArgs, remoteOptions, urlOption, type RemoteArgs } from "./cli/remote-options.js";
import { loggableHeaderOption } from "../core/remote/header-option.js";

export interface RelayArgs {
  policy?: string;
  level?: Level;
  lock?: string;
  logDir?: string;
  name?: string;
  server: string[];
  /** `--url` and its companions: a remote server instead of a command. */
  remote?: RemoteArgs;
  /** `--dialog`: ask in a desktop dialog when the client cannot be asked (decision 0126). */
  dialog?: DialogSetting;
}

export const command: CommandDeclaration = {
  description:
    "Relay one MCP server over stdio and judge every tools/call by its effects: the paths it " +
    "writes and reads, the commands it runs, where it sends data. At observe calls are logged; " +
    "at enforce and strict, denied calls are refused before they reach the server.\n\n" +
    "EFFECTGATE_OFF=1 turns every check off for a run (calls are still logged). Exit codes: the " +
    "server's own; 2 bad words; 78 a policy or lock that cannot be used; 127 a server that " +
    "cannot be started.",
  options: [
    policyOption("default or a policy file (YAML, see docs/policy.md)"),
    levelOption("the policy's mode, else observe"),
    {
      flags: "--lock <file>",
      meaning: "refuse tools whose descriptions changed since `effectgate approve` pinned them",
      default: "none (no pins checked)",
    },
    {
      flags: "--log-dir <dir>",
      meaning: "where session logs are written",
      default: "$EFFECTGATE_HOME/sessions, else ~/.effectgate/sessions",
    },
    {
      flags: "--name <name>",
      meaning: "the server's name, for the policy's server globs and the log",
      default: "none",
    },
    dialogOption,
    urlOption,
    ...remoteOptions,
  ],
  serverCommand: {
    example: "effectgate -- npx -y @modelcontextprotocol/server-filesystem ~/work",
    unlessOption: "url",
  },
  examples: [
    {
      command: "effectgate -- npx -y @modelcontextprotocol/server-filesystem ~/work",
      says: "relay a filesystem server with the shipped policy, logging only (observe)",
    },
    {
      command:
        "effectgate --level enforce --name fs -- npx -y @modelcontextprotocol/server-filesystem ~/work",
      says: "refuse the calls the policy denies",
    },
    { command: "effectgate install --level enforce", says: "wrap every server in your clients' configs" },
  ],
  run: (parsed) => relay(parsed.words, relayArgs(parsed.options, parsed.server)),
};

function relayArgs(options: Record<string, unknown>, server: string[]): RelayArgs {
  const pick = (k: "policy" | "level" | "lock" | "logDir" | "name") =>
    options[k] === undefined ? {} : { [k]: options[k] as string };
  const remote = remoteArgs(options);
  return {
    ...pick("policy"),
    ...(options["level"] === undefined ? {} : { level: options["level"] as Level }),
    ...pick("lock"),
    ...pick("logDir"),
    ...pick("name"),
    ...(options["dialog"] === undefined ? {} : { dialog: options["dialog"] as DialogSetting }),
    server,
    ...(remote ? { remote } : {}),
  };
}

export function parseRelayArgs(args: readonly string[]): RelayArgs {
  const parsed = parseCommand(undefined, command, args);
  if (parsed === "help") throw new UsageError("expected relay options, got --help");
  return relayArgs(parsed.options, parsed.server);
}

/** The relay's argv with each `--header` value replaced by where it came from. */
function loggableArgv(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") return [...out, ...args.slice(i)];
    if (word === "--header" && i + 1 < args.length) {
      out.push(word, loggableHeaderOption(args[++i] as string));
    } else if (word.startsWith("--header=")) out.push(`--header=${loggableHeaderOption(word.slice(9))}`);
    else out.push(word);
  }
  return out;
}

export function sessionDir(logDir: string | undefined, env: NodeJS.ProcessEnv): string {
  return logDir ? logDir : defaultSessionsDir(env);
}

/** What the client is told when the relay stops before relaying anything; null for other errors. */
function startupFailureOf(err: unknown): StartupFailure | null {
  if (err instanceof ConfigError) return { exitCode: EXIT.config, problems: err.problems.map(formatProblem) };
  if (err instanceof CannotStartError) return { exitCode: EXIT.cannotStart, problems: [err.message] };
  if (err instanceof UsageError) return { exitCode: EXIT.usage, problems: [err.message] };
  return null;
}

/**
 * Runs the relay (its option parsing too): when it stops before relaying anything, the client
 * would only see "Connection closed", so its first request gets the cause instead
 * (docs/decisions/0086). The error is thrown on for main.ts to say and map to the exit code.
 */
export async function answeringStartFailures(start: () => Promise<number>): Promise<number> {
  try {
    return await start();
  } catch (err) {
    const failure = startupFailureOf(err);
    if (failure) {
      // Loaded only when a start fails: no relay that starts pays for it.
      const { answerFirstRequest } = await import("../relay/session/startup-failure.js");
      await answerFirstRequest({ input: process.stdin, output: process.stdout }, failure);
      process.stdin.destroy();
    }
    throw err;
  }
}

async function relay(args: string[], parsed: RelayArgs): Promise<number> {
  // Read before any configuration file is opened, so a broken policy cannot block "off".
  const off = isOffValue(process.env.EFFECTGATE_OFF);
  const warn = (line: string): void => {
    process.stderr.write(`effectgate: ${line}\n`);
  };
  if (off) warn("EFFECTGATE_OFF is set: relaying with no checks at all (calls are logged, not judged)");
  // A bad setting stops the relay before the server starts, like a bad policy (exit 78); with
  // the checks off nothing asks, so nothing can block "off".
  if (!off) askTimeoutMs(process.env);
  const cwd = process.cwd();
  // The bridge's module (and the SDK under it) is loaded only for a remote server.
  const remote = parsed.remote
    ? (await import("../relay/remote/start.js")).prepareRemote(parsed.remote, process.env)
    : undefined;
  const gateOptions = {
    ...(parsed.policy !== undefined ? { policy: parsed.policy } : {}),
    ...(parsed.level !== undefined ? { level: parsed.level } : {}),
    ...(parsed.lock !== undefined ? { lock: parsed.lock } : {}),
    ...(parsed.logDir !== undefined ? { logDir: parsed.logDir } : {}),
    ...(parsed.name !== undefined ? { name: parsed.name } : {}),
    ...(remote ? { remoteUrl: remote.server.identity } : {}),
    serverArgv: parsed.server,
    cwd,
    off,
  };
  // Everything that can be wrong with the choices is found before the server starts (exit 78).
  // The policy's modules load only when there is a policy to judge with.
  const gates = off ? null : await import("../relay/gates/build-gates.js");
  const settings = gates ? await gates.readGateSettings(gateOptions) : OFF_SETTINGS;
  // Then the server starts, and the judges, the log and the worker load while it does
  // (docs/decisions/0107-start-up-path.md). Its bytes wait in the pipes until the relay reads.
  // Signals that arrive from here on are held and passed on once the session starts.
  // A remote server is the HTTP bridge, started by the relay itself once the log is open.
  const server = remote
    ? undefined
    : startServer({
        serverArgv: parsed.server,
        env: process.env,
        envDeny: settings.envDeny,
        cwd,
        forwardSignals: true,
      });
  server?.catch(() => undefined); // thrown where runRelay awaits it, once the log is open
  const logDir = sessionDir(parsed.logDir, process.env);
  const name = parsed.name ?? null;
  // Desktop dialogs only when asked for: `--dialog` wins over the policy's `ask.dialog`. Whether
  // this machine can show one is looked up once, here, so the header can say it (decision 0133).
  const dialog = parsed.dialog ?? settings.read?.compiled.askDialog ?? "off";
  const offer =
    !off && dialog === "auto"
      ? (await import("../platform/desktop-dialog.js")).desktopOffer(process.env, currentPlatform())
      : undefined;
  const header = {
    effectgate: VERSION,
    // Header values are often keys: the log keeps their names only.
    argv: remote ? loggableArgv(args) : args,
    server: remote ? ["--url", remote.server.loggable] : parsed.server,
    name,
    cwd,
    pid: process.pid,
    platform: process.platform,
    ...(off
      ? {}
      : {
          ask: offeredAsk(
            offer === undefined
              ? undefined
              : "ask" in offer
                ? { tool: offer.ask.kind }
                : { none: "why" in offer ? offer.why : offer.none },
          ),
        }),
  };
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  // Checked before this session's own log exists; said once the server runs, so that a server
  // that cannot start is the only thing said.
  const firstAtObserve = !off && settings.level === "observe" && !hasEarlierSession(logDir, name);
  // At observe nothing can be refused: a worker thread reads the frames and the log is its own
  // (docs/decisions/0050-observe-work-in-a-worker.md); it builds its own judges, so this thread
  // builds none. With every check off there is nothing to judge and the log stays here.
  const loaded = Promise.all([
    import("../relay/session/relay.js"),
    import("../log/writer.js"),
    settings.level === "observe" && !off
      ? Promise.all([
          import("../relay/session/worker-frames.js"),
          // After the server's start: the frame reader's module brings a dozen with it.
          import("../core/framing/line-splitter.js"),
        ]).then(([{ startShadow }, { MAX_FRAME_BYTES }]) =>
          startShadow(
            {
              gate: gateOptions,
              level: settings.level,
              log: { dir: logDir, name },
              header,
              maxFrameBytes: MAX_FRAME_BYTES,
            },
            say,
            // If the worker cannot start: the same reading here, with the choices read above.
            () => (gates as NonNullable<typeof gates>).buildGate(gateOptions, settings),
          ),
        )
      : Promise.resolve(null),
  ]).then(async ([relayModule, writer, shadow]) => {
    // Without a worker (checks on at enforce or strict, or a worker that could not start) the
    // judges are built here.
    const built =
      shadow || !gates ? { ...settings, gate: undefined } : await gates.buildGate(gateOptions, settings);
    return { runRelay: relayModule.runRelay, openSessionLog: writer.openSessionLog, shadow, built };
  });
  // Nothing may outlive a relay that stops here: the server is in a process group of its own.
  loaded.catch(() => server?.then((s) => signalServer(s.child, "SIGKILL")).catch(() => undefined));
  const { runRelay, openSessionLog, shadow, built } = await loaded;
  const local = shadow ? null : openSessionLog({ dir: logDir, name, warn: say });
  local?.header({ ...header, level: built.level, from: built.from, policy: built.policy, lock: built.lock });
  const log = shadow ? shadow.log : (local as SessionLog);
  let finished = false;
  // The out-of-band store is opened on the first question, once (its schemas load then).
  let asks: Promise<AskStore> | undefined;
  const openAskStore = (): Promise<AskStore> =>
    (asks ??= import("../relay/client/ask-store.js").then(
      (m) => new m.AskStore(effectgateHome(process.env)),
    ));
  let desktop: Promise<DesktopAsker> | undefined;
  const openDesktop = (): Promise<DesktopAsker> =>
    (desktop ??= import("../relay/client/desktop-ask.js").then(
      (m) =>
        new m.DesktopAsker({
          env: process.env,
          platform: currentPlatform(),
          record: log.event.bind(log),
          ...(offer ? { offer } : {}),
        }),
    ));
  try {
    const result = await runRelay({
      serverArgv: parsed.server,
      ...(remote ? { remote: () => remote.start() } : {}),
      ...(server ? { server } : {}),
      input: process.stdin,
      output: process.stdout,
      errorOutput: process.stderr,
      gate: built.gate,
      log,
      env: process.env,
      envDeny: built.envDeny,
      cwd,
      forwardSignals: true,
      // Only strict asks; a question nobody can be asked in the chat waits for `effectgate allow`.
      ...(built.level === "strict" && built.gate !== undefined
        ? {
            outOfBand: {
              store: openAskStore,
              server:
                remote && (parsed.name === undefined || parsed.name === "")
                  ? remote.server.identity
                  : identityFor(parsed.name, parsed.server),
              ...(dialog === "auto" ? { desktop: openDesktop } : {}),
            },
          }
        : {}),
      onSpawn: () => {
        if (firstAtObserve) for (const line of observeNotice(RELAY_HOW_TO_ENFORCE)) warn(line);
        // Once the server runs, and off the critical path: old logs go (decision 0097).
        setImmediate(() => void prune(logDir, log, warn, () => finished));
      },
      ...(shadow ? { frames: shadow.frames } : {}),
    });
    return result.exitCode;
  } catch (err) {
    log.event("cannot-start", { error: err instanceof Error ? err.message : String(err) });
    if (err instanceof CannotStartError)
      log.exit({ code: null, signal: null, exitCode: EXIT.cannotStart, counts: {} });
    throw err;
  } finally {
    finished = true;
    if (shadow) await shadow.close();
    local?.close();
  }
}

/**
 * Deletes session logs past their retention. What it removed is recorded in this session's log;
 * a setting it cannot read is said on stderr, and then nothing is deleted.
 */
async function prune(
  dir: string,
  log: { event(ev: string, data: Record<string, unknown>): void },
  warn: (line: string) => void,
  finished: () => boolean,
): Promise<void> {
  const keep = keepSetting(process.env);
  if (!keep.ok) return warn(keep.problem);
  if (keep.days === null) return;
  try {
    const pruned = await pruneSessions(dir, keep.days, Date.now());
    if (finished()) return;
    if (pruned.skipped !== undefined) log.event("logs-not-pruned", { dir, why: pruned.skipped });
    else if (pruned.removed > 0)
      log.event("logs-pruned", {
        dir,
        olderThanDays: keep.days,
        removed: pruned.removed,
        bytes: pruned.bytes,
      });
  } catch (err) {
    if (!finished()) warn(`could not delete old session logs in ${dir}: ${(err as Error).message}`);
  }
}
