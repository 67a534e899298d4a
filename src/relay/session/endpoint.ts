/**
 * The server side of a session as the relay sees it: three byte streams, an exit, and a way to
 * ask it to stop. A spawned server process is one (childEndpoint); the HTTP bridge of
 * `effectgate --url` is another (src/relay/remote/endpoint.ts), so the relay's framing, gates,
 * log and lifecycle are the same code for both.
 */
import type { Readable, Writable } from "node:stream";
import { signalServer, stopLeftovers, takeServerPipes, type ServerProcess } from "../process/spawn-server.js";

export interface ServerEndpoint {
  /** What the client's frames are written to. */
  readonly stdin: Writable;
  /** The server's frames, newline-delimited. */
  readonly stdout: Readable;
  /** The server's diagnostics, relayed to ours line by line and logged. */
  readonly stderr: Readable;
  readonly pid: number | undefined;
  /** What the log's `server-start` event says about it, beside its pid. */
  readonly started: Record<string, unknown>;
  on(event: "error", listener: (err: Error) => void): unknown;
  once(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  /** After exit, once its streams are closed. */
  once(event: "close", listener: () => void): unknown;
  /** Ask it to stop (a signal to the process group; the bridge ends its HTTP session). */
  signal(sig: NodeJS.Signals): void;
  /**
   * For a server started before the relay loaded (decision 0107): stop holding its pipes' bytes,
   * now that the session reads them.
   */
  takePipes?(): void;
  /**
   * The positions (from 0, among its stdout lines) of the lines it wrote itself since it was last
   * asked: the `--url` bridge's error answers (decision 0114). Asked before each stdout chunk is
   * read, so a line's mark is known when the line is. Positions, never content: a server could
   * forge content.
   */
  takeOwnLines?(): number[];
  /** After it exited: stop what it left running. `onKill` hears each signal actually sent. */
  stopLeftovers(graceMs: number, onKill: (sig: "SIGTERM" | "SIGKILL") => void): Promise<void>;
}

/** A spawned server (spawn-server.ts, in a process group of its own on POSIX) as an endpoint. */
export function childEndpoint(child: ServerProcess, argv: readonly string[]): ServerEndpoint {
  return {
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    pid: child.pid,
    started: { argv: [...argv] },
    on: (event, listener) => child.on(event, listener),
    once: (event: "exit" | "close", listener: (...a: never[]) => void) =>
      child.once(event, listener as (...a: unknown[]) => void),
    signal: (sig) => void signalServer(child, sig),
    stopLeftovers: (graceMs, onKill) => stopLeftovers(child, graceMs, onKill),
    takePipes: () => takeServerPipes(child),
  };
}
