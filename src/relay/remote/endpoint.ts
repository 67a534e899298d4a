/**
 * The bridge as the relay's server endpoint (src/relay/session/endpoint.ts): the relay writes
 * the client's frames it let through to `stdin`, reads the server's messages as lines on
 * `stdout`, and shows `stderr` lines to the human (and logs them). The endpoint "exits" once the
 * client is gone and the HTTP session is ended, or when the relay asks it to stop.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { LineSplitter, MAX_FRAME_BYTES } from "../../core/framing/line-splitter.js";
import { escapeUntrusted } from "../../core/text/terminal-text.js";
import type { ServerEndpoint } from "../session/endpoint.js";
import { Bridge, type BridgeOptions } from "./bridge.js";

export interface RemoteEndpointOptions extends Omit<BridgeOptions, "toClient" | "say"> {
  /** What the log's `server-start` event says (the URL without query values, the transport). */
  started: Record<string, unknown>;
  /** Called when the endpoint has stopped (the auth callback server closes, say). */
  onStop?: () => Promise<void> | void;
}

export class RemoteEndpoint extends EventEmitter implements ServerEndpoint {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly pid = undefined;
  readonly started: Record<string, unknown>;
  private readonly bridge: Bridge;
  private readonly lines = new LineSplitter(MAX_FRAME_BYTES);
  private stopping: Promise<void> | undefined;
  private exited = false;
  /** Lines written to stdout so far, and which of them the bridge wrote itself (by position). */
  private written = 0;
  private ownLines: number[] = [];

  constructor(private readonly o: RemoteEndpointOptions) {
    super();
    this.started = o.started;
    this.bridge = new Bridge({
      ...o,
      toClient: (line, own) => {
        if (this.exited) return;
        // Noted before the write, so the relay knows it by the time it reads the line.
        if (own) this.ownLines.push(this.written);
        this.written += linesIn(line);
        this.stdout.write(`${line}\n`);
      },
      say: (line) => this.notice(line),
    });
    this.stdin.on("data", (chunk: Buffer) => {
      this.lines.push(chunk, (f) => this.bridge.fromClient(f.bytes));
    });
    this.stdin.once("end", () => {
      this.lines.end((f) => this.bridge.fromClient(f.bytes));
      // Answers to what is in flight still reach the client; the relay stops us if they do not come.
      void this.bridge.drained().then(() => this.stop());
    });
    // The relay's writes after the client has gone are dropped, not errors.
    this.stdin.on("error", () => undefined);
  }

  takeOwnLines(): number[] {
    const lines = this.ownLines;
    this.ownLines = [];
    return lines;
  }

  /** One line for the human: untrusted text (server errors) is escaped, and it is one line. */
  notice(line: string): void {
    if (this.exited) return;
    this.stderr.write(`effectgate: remote: ${escapeUntrusted(line, "transcript")}\n`);
  }

  signal(sig: NodeJS.Signals): void {
    if (sig === "SIGKILL") {
      void this.bridge.close();
      void this.exit();
      return;
    }
    void this.stop();
  }

  stopLeftovers(): Promise<void> {
    return Promise.resolve(); // nothing of ours runs on after the bridge
  }

  private stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.bridge.close();
      await this.o.onStop?.();
      await this.exit();
    })();
    return this.stopping;
  }

  private async exit(): Promise<void> {
    if (this.exited) return;
    this.exited = true;
    const ended = Promise.all([
      new Promise((r) => this.stdout.once("end", r)),
      new Promise((r) => this.stderr.once("end", r)),
    ]);
    this.stdout.end();
    this.stderr.end();
    this.emit("exit", 0, null);
    await ended;
    this.emit("close");
  }
}

/** How many lines the relay's splitter reads in `line` and its newline (JSON text has no raw LF). */
function linesIn(line: string): number {
  let n = 1;
  for (let i = line.indexOf("\n"); i >= 0; i = line.indexOf("\n", i + 1)) n++;
  return n;
}
