/**
 * The live relay: one server process, the client's streams, a gate and a log. Everything the
 * CLI does beyond parsing options starts here (the session's wiring is session.ts), so tests can
 * drive it with PassThrough streams and real fixture servers.
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
import { startServer, type StartedServer } from "../process/spawn-server.js";
import { childEndpoint, type ServerEndpoint } from "./endpoint.js";
import type { RelayOptions, RelayResult } from "./relay-options.js";
import { Session } from "./session.js";

export type { RelayLog, RelayStats } from "./types.js";
export type { FramesIo, RelayOptions, RelayResult } from "./relay-options.js";
export { GRACE_AFTER_EOF_MS, GRACE_AFTER_TERM_MS } from "./constants.js";

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
