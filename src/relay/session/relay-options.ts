// What runRelay is given and what it returns: the session's streams, gate, log and server.
import type { Readable, Writable } from "node:stream";
import type { Gate } from "../../core/gate/gate.js";
import type { OutOfBand } from "../client/ask-store.js";
import type { StartedServer } from "../process/spawn-server.js";
import type { ServerEndpoint } from "./endpoint.js";
import type { Flow, Outbound } from "./flow.js";
import type { Frames } from "./frames.js";
import type { RelayLog, RelayStats } from "./types.js";

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
