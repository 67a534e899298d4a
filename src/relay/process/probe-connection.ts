// The probe's one connection to a server: requests with ids and timeouts, its answers read a
// line at a time, the server's own requests answered, and a stop that leaves nothing running.
import { constants as osConstants } from "node:os";
import { LineSplitter, MAX_FRAME_BYTES } from "../../core/framing/line-splitter.js";
import { parseStrictJson } from "../../core/json/strict-json.js";
import type { ServerEndpoint } from "../session/endpoint.js";
import { answerServerRequest } from "./probe-answers.js";

/** How long a server has to leave after its stdin closes, and after SIGTERM, before the next step. */
const GRACE_AFTER_EOF_MS = 2000;
const GRACE_AFTER_TERM_MS = 1000;

/** The probe did not get what it needed from the server: `approve` exits 1 with this text. */
export class ProbeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProbeError";
  }
}

/**
 * `approve` itself got SIGINT or SIGTERM while probing. The server runs in its own process group,
 * so a terminal's Ctrl-C does not reach it: the probe passes the signal on, stops the server, and
 * `approve` exits 128 + the signal's number, as the shell would report.
 */
export class ProbeInterrupted extends ProbeError {
  readonly exitCode: number;
  constructor(readonly signal: "SIGINT" | "SIGTERM") {
    super(`interrupted by ${signal}; the server was stopped and nothing was written`);
    this.name = "ProbeInterrupted";
    this.exitCode = 128 + osConstants.signals[signal];
  }
}

export type Msg = Record<string, unknown>;
export const isObj = (v: unknown): v is Msg => typeof v === "object" && v !== null && !Array.isArray(v);

export class Connection {
  private nextId = 1;
  /** The relay's own line reader: the same frames, CRLF and limit as a session reads. */
  private readonly lines = new LineSplitter();
  private readonly pending = new Map<
    number,
    { method: string; resolve: (m: Msg) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private exited: string | undefined;
  private interrupted: ProbeInterrupted | undefined;
  readonly done: Promise<void>;

  constructor(
    private readonly child: ServerEndpoint,
    private readonly timeoutMs: number,
    onStderr?: (t: string) => void,
  ) {
    child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    child.stderr.on("data", (chunk: Buffer) => onStderr?.(chunk.toString("utf8")));
    child.stdin.on("error", () => undefined); // EPIPE after the server died: reported via exit
    this.done = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exited = signal ? `signal ${signal}` : `code ${code}`;
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          p.reject(new ProbeError(`the server exited (${this.exited}) before answering ${p.method}`));
          this.pending.delete(id);
        }
        resolve();
      });
    });
  }

  private onData(chunk: Buffer): void {
    if (this.lines.overflow) return;
    const whole = this.lines.push(chunk, (frame) => this.onLine(frame.bytes.toString("utf8")));
    if (whole) return;
    // A line past the splitter's limit cannot be read: whatever waits for an answer fails.
    for (const [id, p] of this.pending) this.settle(id, this.tooLong(p.method));
  }

  private tooLong(method: string): ProbeError {
    return new ProbeError(
      `the server wrote a line of more than ${MAX_FRAME_BYTES} bytes on stdout before answering ${method}`,
    );
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    const parsed = parseStrictJson(line);
    if (!parsed.ok) {
      // Chatter on stdout is a server bug, not a reason to fail; but an answer we cannot read
      // unambiguously (duplicate keys) must not be approved.
      const idMatch = /"id"\s*:\s*(\d+)/.exec(line);
      const p = idMatch ? this.pending.get(Number(idMatch[1])) : undefined;
      if (p && /duplicate key/.test(parsed.error))
        this.settle(
          Number(idMatch![1]),
          new ProbeError(`the answer to ${p.method} cannot be read: ${parsed.error}`),
        );
      return;
    }
    const msg = parsed.value;
    if (!isObj(msg)) return;
    if (typeof msg["method"] === "string" && msg["id"] !== undefined) {
      this.send({ jsonrpc: "2.0", id: msg["id"], ...answerServerRequest(msg["method"]) });
      return;
    }
    if (typeof msg["id"] === "number" && ("result" in msg || "error" in msg)) this.settle(msg["id"], msg);
  }

  private settle(id: number, outcome: Msg | Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (outcome instanceof Error) p.reject(outcome);
    else p.resolve(outcome);
  }

  send(msg: Msg): void {
    if (this.exited === undefined) this.child.stdin.write(`${JSON.stringify(msg)}\n`);
  }

  /** The whole response message (result or error). */
  request(method: string, params: Msg): Promise<Msg> {
    if (this.interrupted) return Promise.reject(this.interrupted);
    if (this.lines.overflow) return Promise.reject(this.tooLong(method));
    if (this.exited !== undefined)
      return Promise.reject(new ProbeError(`the server exited (${this.exited}) before answering ${method}`));
    const id = this.nextId++;
    return new Promise<Msg>((resolve, reject) => {
      const seconds = Math.round(this.timeoutMs / 100) / 10;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ProbeError(`timed out after ${seconds}s waiting for the answer to ${method}`));
      }, this.timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** `approve` got `sig`: the server's group gets it too, and every wait ends with the interruption. */
  interrupt(sig: "SIGINT" | "SIGTERM"): void {
    this.interrupted ??= new ProbeInterrupted(sig);
    this.child.signal(sig);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(this.interrupted);
      this.pending.delete(id);
    }
  }

  /**
   * Close stdin (the portable goodbye), then escalate; resolves once the server and everything
   * it started in its group are gone.
   */
  async close(): Promise<void> {
    for (const [, p] of this.pending) clearTimeout(p.timer);
    this.pending.clear();
    if (this.exited === undefined) {
      this.child.stdin.end();
      const gone = (ms: number) =>
        Promise.race([
          this.done.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()),
        ]);
      if (!(await gone(GRACE_AFTER_EOF_MS))) {
        this.child.signal("SIGTERM");
        if (!(await gone(GRACE_AFTER_TERM_MS))) {
          this.child.signal("SIGKILL");
          await this.done;
        }
      }
    }
    await this.child.stopLeftovers(GRACE_AFTER_TERM_MS, () => undefined);
    // A process outside the group (one that called setsid) may still hold the pipes open; they
    // must not keep `approve` alive after it has what it needs.
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }
}
