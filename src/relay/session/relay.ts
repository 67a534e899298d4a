/**
 * The live relay: one server process, the client's streams, a gate and a log. Everything the
 * CLI does beyond parsing options lives here, so tests can drive it with PassThrough streams
 * and real fixture servers.
 *
 * Lifecycle: client EOF → end the server's stdin → GRACE_AFTER_EOF_MS → SIGTERM →
 * GRACE_AFTER_TERM_MS → SIGKILL. A signal to us is passed on, followed by the same SIGKILL
 * deadline. On POSIX every signal goes to the server's process group, so what it started goes
 * too. When the server exits: stop what it left running in its group, flush what it wrote,
 * close our output, write the exit record.
 *
 * Pass-through: when nothing can be refused (a record-only gate at observe, or checks off), each
 * chunk goes on the moment it arrives, like a bare pipe, and the frames are logged, judged and
 * observed right after, in one lane for both directions (docs/decisions/0048-observe-passes-bytes-first.md).
 * The CLI then hands that work to a worker thread (`frames`, docs/decisions/0050), so this thread
 * only moves bytes; frames.ts is where bytes become frames either way.
 */
import { serverStderrLine } from "../../core/text/server-stderr.js";
import type { OutOfBand } from "../client/ask-store.js";
import { escapeUntrusted } from "../../core/text/terminal-text.js";
import { constants as osConstants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { nothingRefused, type Gate } from "../../core/gate/gate.js";
import { LineSplitter, MAX_FRAME_BYTES, type Frame } from "../../core/framing/line-splitter.js";
import { GRACE_AFTER_EOF_MS, GRACE_AFTER_TERM_MS } from "./constants.js";
import { Flow, Outbound } from "./flow.js";
import { LocalFrames, type Frames } from "./frames.js";
import { FORWARDED_SIGNALS, startServer, type StartedServer } from "../process/spawn-server.js";
import { childEndpoint, type ServerEndpoint } from "./endpoint.js";
import { newStats, type RelayLog, type RelayStats } from "./types.js";

export type { RelayLog, RelayStats } from "./types.js";
export { GRACE_AFTER_EOF_MS, GRACE_AFTER_TERM_MS } from "./constants.js";

export interface RelayOptions {
  /** The server command and its arguments (ignored when `server` is given). */
  serverArgv: readonly string[];
  /**
   * A server that is not a process of ours (the HTTP bridge of `--url`): started instead of
   * spawning `serverArgv`. Its environment is not ours to filter.
   */
  remote?: () => Promise<ServerEndpoint>;
  /** The client's side: what it writes to us, where we write to it, and our stderr. */
  input: Readable;
  output: Writable;
  errorOutput: Writable;
  /** Undefined when every check is off. */
  gate: Gate | undefined;
  log: RelayLog;
  env: NodeJS.ProcessEnv;
  /** Variables not passed to the server (names are logged, never values). */
  envDeny?: readonly string[] | ((name: string) => boolean);
  cwd: string;
  /** Pass SIGINT/SIGTERM/SIGHUP received by this process on to the server (the CLI does). */
  forwardSignals?: boolean;
  /** Longest line accepted in any stream (default MAX_FRAME_BYTES); tests lower it. */
  maxFrameBytes?: number;
  /** Where questions wait when the client cannot be asked (`effectgate pending`, decision 0105). */
  outOfBand?: OutOfBand;
  /** Called once the server is running (tests use it to learn the pid). */
  onSpawn?: (pid: number) => void;
  /**
   * The server, when the caller started it already (startServer) so that it starts while the
   * relay loads; its failure to start is thrown here, as if the relay had started it.
   */
  server?: Promise<StartedServer>;
  /**
   * Frames read somewhere else (the shadow worker, worker-frames.ts): bytes then always pass
   * through as they arrive. Given the session's streams; default: LocalFrames on this thread.
   */
  frames?: (io: FramesIo) => Frames;
}

/** The session's streams and voices, for a Frames made elsewhere. */
export interface FramesIo {
  toClient: Outbound;
  clientFlow: Flow;
  serverFlow: Flow;
  announce: (line: string) => void;
  onError: (err: unknown) => void;
}

export interface RelayResult {
  /** What effectgate exits with: the server's code, or 128 + signal number. */
  exitCode: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stats: RelayStats;
}

export async function runRelay(o: RelayOptions): Promise<RelayResult> {
  let child: ServerEndpoint;
  let exit: Promise<[number | null, NodeJS.Signals | null]>;
  let held: Pick<StartedServer, "signals" | "stopHolding"> = { signals: [], stopHolding: () => undefined };
  if (o.remote) {
    // The HTTP bridge of --url: not a process of ours, so no environment to filter (0098).
    child = await o.remote();
    const bridge = child;
    exit = new Promise((resolve) => bridge.once("exit", (code, signal) => resolve([code, signal])));
  } else {
    const started = await (o.server ?? startServer(o));
    if (started.removed.length > 0) o.log.event("env-deny", { removed: started.removed });
    started.child.removeAllListeners("error");
    for (const err of started.early) o.log.event("server-error", { error: err.message });
    child = childEndpoint(started.child, o.serverArgv);
    exit = started.exit;
    held = started;
  }
  o.log.event("server-start", { pid: child.pid ?? null, ...child.started });
  if (child.pid !== undefined) o.onSpawn?.(child.pid);
  return new Promise((resolve) => {
    new Session(o, child, exit, resolve).start(held.signals);
    held.stopHolding();
  });
}

class Session {
  private readonly stats = newStats();
  private readonly timers = new Set<NodeJS.Timeout>();
  private clientDone = false;
  private exited = false;
  private readonly overflowSaid = new Set<string>();
  private readonly maxFrameBytes: number;
  private stderrOut: Outbound | undefined;
  private readonly announce: (line: string) => void;
  private readonly toServer: Outbound;
  private readonly toClient: Outbound;
  private readonly frames: Frames;
  /** Bytes go on the moment they arrive; frames are read after (see the file comment). */
  private readonly passThrough: boolean;
  /** Set once effectgate itself starts stopping the server (client gone, signal, oversize line). */
  private stopping = false;
  /** Signals effectgate sent the server, so an exit by one of them is not reported as a crash. */
  private readonly sentSignals = new Set<NodeJS.Signals>();
  private readonly onSignal = (sig: NodeJS.Signals): void => this.signalled(sig);
  private readonly killOnExit = (): void => {
    if (!this.exited) this.kill("SIGKILL");
  };

  constructor(
    private readonly o: RelayOptions,
    private readonly child: ServerEndpoint,
    private readonly exit: Promise<[number | null, NodeJS.Signals | null]>,
    private readonly resolve: (r: RelayResult) => void,
  ) {
    const log = o.log;
    const clientFlow = new Flow(o.input);
    const serverFlow = new Flow(child.stdout);
    this.maxFrameBytes = o.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.passThrough = o.frames !== undefined || nothingRefused(o.gate);
    this.toServer = new Outbound(child.stdin, clientFlow, (err) => {
      if (err) log.event("server-stdin-closed", { error: err.message });
    });
    this.toClient = new Outbound(o.output, serverFlow, () => this.clientEnded("client output closed"));
    // Notices quote tool names, paths and ids that a client or server chose: none may act on the
    // terminal or hide text, and each stays one line.
    const announce = (line: string): void => {
      o.errorOutput.write(`effectgate: ${escapeUntrusted(line, "transcript")}\n`);
    };
    this.announce = announce;
    const onError = (err: unknown): void => {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log.event("relay-error", { error: message });
      announce(`internal error: ${message.split("\n")[0] ?? ""}`);
    };
    const io: FramesIo = { toClient: this.toClient, clientFlow, serverFlow, announce, onError };
    this.frames = o.frames
      ? o.frames(io)
      : new LocalFrames({
          ...io,
          gate: o.gate,
          log,
          maxFrameBytes: this.maxFrameBytes,
          passThrough: this.passThrough,
          toServer: this.toServer,
          stats: this.stats,
          holdBacklog: true,
          ...(o.outOfBand ? { outOfBand: o.outOfBand } : {}),
        });
  }

  /** `signals`: those the relay received while it loaded, after the server had started. */
  start(signals: readonly NodeJS.Signals[] = []): void {
    const { o, child, frames } = this;
    const pass = this.passThrough;
    o.input.on("data", (chunk: Buffer) => {
      if (pass && !frames.overflowed("client")) this.toServer.write(chunk);
      if (!frames.push("client", chunk)) this.tooLarge("client");
    });
    const ended = (): void => {
      if (this.clientDone) return;
      frames.end("client");
      this.clientEnded("client closed its output (EOF)");
    };
    o.input.once("end", ended);
    o.input.once("close", ended);
    o.input.once("error", ended);
    child.takePipes?.();
    child.stdout.on("data", (chunk: Buffer) => {
      if (pass && !frames.overflowed("server")) this.toClient.write(chunk);
      if (!frames.push("server", chunk)) this.tooLarge("server");
      if (pass) frames.afterServerChunk();
    });
    child.stdout.once("end", () => frames.end("server"));
    this.relayStderr();
    child.on("error", (err) => o.log.event("server-error", { error: err.message }));
    void this.exit.then(([code, signal]) => this.serverExited(code, signal));
    process.once("exit", this.killOnExit);
    if (o.forwardSignals) for (const sig of FORWARDED_SIGNALS) process.on(sig, this.onSignal);
    if (o.forwardSignals) for (const sig of signals) this.signalled(sig);
  }

  /**
   * The server's stderr goes to ours line by line (never torn mid-line), marked and escaped so
   * that it can neither erase nor pass for effectgate's own notices (core/text/server-stderr.ts),
   * and into the log as the server wrote it.
   */
  private relayStderr(): void {
    const { o, child } = this;
    const lines = new LineSplitter(this.maxFrameBytes);
    const out = new Outbound(o.errorOutput, new Flow(child.stderr), () => undefined);
    this.stderrOut = out;
    const emit = (f: Frame): void => {
      this.stats.stderrLines++;
      const text = f.bytes.toString("utf8");
      o.log.stderr(text);
      out.write(Buffer.from(`${serverStderrLine(text)}\n`));
    };
    child.stderr.on("data", (chunk: Buffer) => {
      if (!lines.push(chunk, emit)) this.tooLarge("server stderr");
    });
    child.stderr.once("end", () => lines.end(emit));
  }

  /**
   * A line past MAX_FRAME_BYTES cannot be relayed whole. The rest of that stream is read and
   * dropped; the session ends: a client that did this is treated as gone, a server is stopped.
   */
  private tooLarge(from: "client" | "server" | "server stderr"): void {
    if (this.overflowSaid.has(from)) return;
    this.overflowSaid.add(from);
    this.o.log.event("frame-too-large", { from, limitBytes: this.maxFrameBytes });
    this.announce(`the ${from} sent a line longer than ${this.maxFrameBytes} bytes; it cannot be relayed`);
    if (from === "client") this.clientEnded("the client sent a line over the size limit");
    else if (from === "server" && !this.exited) {
      this.stopping = true;
      this.kill("SIGTERM");
      this.escalate(GRACE_AFTER_TERM_MS, "SIGKILL");
    }
  }

  private clientEnded(why: string): void {
    if (this.clientDone) return;
    this.clientDone = true;
    if (this.exited) return;
    this.o.log.event("client-eof", { why });
    this.stopping = true;
    this.frames.cancelAsks();
    void this.frames.settled("client").then(() => {
      this.frames.cancelAsks();
      if (this.exited) return;
      void this.toServer.end();
      this.escalate(GRACE_AFTER_EOF_MS, "SIGTERM");
    });
  }

  private signalled(sig: NodeJS.Signals): void {
    this.o.log.event("signal", { signal: sig });
    if (this.exited) {
      this.announce(`received ${sig}; the server has already exited`);
      return;
    }
    this.announce(`received ${sig}; stopping the server`);
    this.stopping = true;
    this.kill(sig);
    this.escalate(GRACE_AFTER_TERM_MS, "SIGKILL");
  }

  private kill(sig: NodeJS.Signals): void {
    this.sentSignals.add(sig);
    this.child.signal(sig);
  }

  /** Processes the server started and left running in its group are stopped too, and logged. */
  private stopLeftovers(): Promise<void> {
    return this.child.stopLeftovers(GRACE_AFTER_TERM_MS, (signal) =>
      this.o.log.event("kill", { signal, group: "left running after the server exited" }),
    );
  }

  /** After `wait` ms send `sig`; a SIGTERM is followed by SIGKILL after GRACE_AFTER_TERM_MS. */
  private escalate(wait: number, sig: NodeJS.Signals): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.exited) return;
      this.o.log.event("kill", { signal: sig, afterMs: wait });
      this.kill(sig);
      if (sig === "SIGTERM") this.escalate(GRACE_AFTER_TERM_MS, "SIGKILL");
    }, wait);
    this.timers.add(timer);
  }

  private async serverExited(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const { o, child } = this;
    this.exited = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const leftovers = this.stopLeftovers();
    // Flush: wait until the server's pipes are drained. A grandchild may hold them open; do
    // not wait for it forever.
    await new Promise<void>((resolve) => {
      if (child.stdout.readableEnded && child.stderr.readableEnded) return resolve();
      const timer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve();
      }, GRACE_AFTER_TERM_MS);
      child.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await leftovers;
    const { unanswered, stats } = await this.frames.finish();
    await this.stderrOut?.drained(); // our stderr is not ours to close; just let it take the rest
    this.sayExit(code, signal, unanswered); // after the server's own stderr, so it is the last word
    this.clientDone = true;
    this.frames.cancelAsks();
    o.input.removeAllListeners("data");
    o.input.pause();
    o.input.destroy();
    await this.toClient.end();
    const exitCode = code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0);
    const counts: RelayStats = { ...stats, stderrLines: this.stats.stderrLines };
    o.log.exit({ code, signal, exitCode, counts: { ...counts } });
    process.off("exit", this.killOnExit);
    for (const sig of FORWARDED_SIGNALS) process.off(sig, this.onSignal);
    this.resolve({ exitCode, code, signal, stats: counts });
  }

  /**
   * One stderr line (and a `server-exit` event) when the end was not one effectgate asked for:
   * a crash, an exit of its own, a signal from elsewhere, or calls still waiting for answers.
   * `unanswered` is null when requests are not tracked.
   */
  private sayExit(code: number | null, signal: NodeJS.Signals | null, unanswered: number | null): void {
    const left = unanswered
      ? `; ${unanswered} call${unanswered === 1 ? " was" : "s were"} left unanswered`
      : "";
    let line: string | null = null;
    if (signal !== null) {
      const ours = this.sentSignals.has(signal);
      if (!ours || left) line = `server was killed by ${signal}${ours ? " (sent by effectgate)" : ""}${left}`;
    } else if (code !== 0 || left || !this.stopping) {
      line = `server exited with code ${code ?? "unknown"}${left}`;
    }
    this.o.log.event("server-exit", { code, signal, unanswered, stopping: this.stopping, said: line });
    if (line) this.announce(line);
  }
}
