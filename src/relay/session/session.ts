// One session's wiring: the streams both ways, the server's stderr, and its end (file comment of relay.ts).
import { serverStderrLine } from "../../core/text/server-stderr.js";
import { escapeUntrusted } from "../../core/text/terminal-text.js";
import { constants as osConstants } from "node:os";
import { nothingRefused } from "../../core/gate/gate.js";
import { LineSplitter, MAX_FRAME_BYTES, type Frame } from "../../core/framing/line-splitter.js";
import { GRACE_AFTER_EOF_MS, GRACE_AFTER_TERM_MS } from "./constants.js";
import { Flow, Outbound } from "./flow.js";
import { LocalFrames, type Frames } from "./frames.js";
import { FORWARDED_SIGNALS } from "../process/spawn-server.js";
import type { ServerEndpoint } from "./endpoint.js";
import type { FramesIo, RelayOptions, RelayResult } from "./relay-options.js";
import { pipesDrained, ServerStop } from "./server-stop.js";
import { newStats, type RelayStats } from "./types.js";

export class Session {
  private readonly stats = newStats();
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
  private readonly stop: ServerStop;
  private readonly onSignal = (sig: NodeJS.Signals): void => this.signalled(sig);
  private readonly killOnExit = (): void => {
    if (!this.exited) this.stop.kill("SIGKILL");
  };

  constructor(
    private readonly o: RelayOptions,
    private readonly child: ServerEndpoint,
    private readonly exit: Promise<[number | null, NodeJS.Signals | null]>,
    private readonly resolve: (r: RelayResult) => void,
  ) {
    const log = o.log;
    this.stop = new ServerStop(child, log, () => this.exited);
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
      // Before the chunk is read: which of its lines the endpoint wrote itself (decision 0114).
      const own = child.takeOwnLines?.();
      if (own !== undefined && own.length > 0) frames.bridgeLines(own);
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
      this.stop.stopping = true;
      this.stop.kill("SIGTERM");
      this.stop.escalate(GRACE_AFTER_TERM_MS, "SIGKILL");
    }
  }

  private clientEnded(why: string): void {
    if (this.clientDone) return;
    this.clientDone = true;
    if (this.exited) return;
    this.o.log.event("client-eof", { why });
    this.stop.stopping = true;
    this.frames.cancelAsks();
    void this.frames.settled("client").then(() => {
      this.frames.cancelAsks();
      if (this.exited) return;
      void this.toServer.end();
      this.stop.escalate(GRACE_AFTER_EOF_MS, "SIGTERM");
    });
  }

  private signalled(sig: NodeJS.Signals): void {
    this.o.log.event("signal", { signal: sig });
    if (this.exited) {
      this.announce(`received ${sig}; the server has already exited`);
      return;
    }
    this.announce(`received ${sig}; stopping the server`);
    this.stop.stopping = true;
    this.stop.kill(sig);
    this.stop.escalate(GRACE_AFTER_TERM_MS, "SIGKILL");
  }

  private async serverExited(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const { o, child } = this;
    this.exited = true;
    this.stop.clearTimers();
    const leftovers = this.stop.stopLeftovers();
    await pipesDrained(child);
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
      const ours = this.stop.sentSignals.has(signal);
      if (!ours || left) line = `server was killed by ${signal}${ours ? " (sent by effectgate)" : ""}${left}`;
    } else if (code !== 0 || left || !this.stop.stopping) {
      line = `server exited with code ${code ?? "unknown"}${left}`;
    }
    this.o.log.event("server-exit", { code, signal, unanswered, stopping: this.stop.stopping, said: line });
    if (line) this.announce(line);
  }
}
