/**
 * One relay session from the options read: reads EFFECTGATE_OFF before any file is opened,
 * builds the gate, starts the server while the judges load (decision 0107), opens the session
 * log and hands process.stdin/stdout to the relay. With `--url` the relay's server is the HTTP
 * bridge (src/relay/remote/), loaded only then.
 */
import { CannotStartError, EXIT } from "../core/errors.js";
import type { SessionLog } from "../log/writer.js";
import { hasEarlierSession } from "../log/earlier-session.js";
import { observeNotice, RELAY_HOW_TO_ENFORCE } from "../core/gate/observe-notice.js";
import { isOffValue, OFF_SETTINGS } from "../relay/gates/off-switch.js";
import { signalServer, startServer } from "../relay/process/spawn-server.js";
import { askTimeoutMs } from "../relay/session/constants.js";
import { VERSION } from "../version.js";
import type { AskStore } from "../relay/client/ask-store.js";
import type { DesktopAsker } from "../relay/client/desktop-ask.js";
import { currentPlatform } from "../platform/profile.js";
import { offeredAsk } from "../core/gate/ask-channel.js";
import { identityFor } from "../core/pins/identity.js";
import { effectgateHome } from "../platform/home.js";
import { loggableArgv, sessionDir, type RelayArgs } from "./relay-args.js";
import { prune } from "./relay-prune.js";
import { answerStartFailure } from "./relay-start-failure.js";

export async function runRelaySession(args: string[], parsed: RelayArgs): Promise<number> {
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
  for (const notice of settings.read?.grantNotices ?? []) warn(notice);
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
              ...(built.read ? { project: built.read.projectGrants } : {}),
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
    if (err instanceof CannotStartError) {
      // The log is open: the answer to the first request is recorded as effectgate's, before
      // the client sees it and before the log's last record (decision 0112).
      await answerStartFailure(err, (line) =>
        log.frame("s2c", Buffer.from(line), "\n", false, true, "effectgate"),
      );
      log.exit({ code: null, signal: null, exitCode: EXIT.cannotStart, counts: {} });
    }
    throw err;
  } finally {
    finished = true;
    if (shadow) await shadow.close();
    local?.close();
  }
}
