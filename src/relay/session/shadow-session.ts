/**
 * What the shadow worker does with the relay's messages (docs/decisions/0050 and 0130): open the
 * session log with the gate's header, then read each chunk as the relay's own thread would in
 * pass-through (LocalFrames), log each event and stderr line, and answer syncs. It runs in the
 * worker (shadow-worker.ts), and on the relay's thread when the worker could not start: then the
 * messages the relay posted meanwhile are read here, in order.
 */
import { nothingRefused } from "../../core/gate/gate.js";
import { openSessionLog } from "../../log/writer.js";
import type { BuiltGate } from "../gates/build-gates.js";
import { LocalFrames } from "./frames.js";
import { newStats } from "./types.js";
import type { FromWorker, ShadowSetup, ToWorker } from "./worker-frames.js";

/**
 * Opens the session for `setup` with the gate `build` gives. Resolves to the reader of the
 * relay's messages, or to why it cannot read them (the gate would refuse, or reads another level).
 */
export async function openShadowSession(
  setup: ShadowSetup,
  build: () => Promise<BuiltGate>,
  send: (m: FromWorker) => void,
): Promise<((m: ToWorker) => void) | string> {
  let built;
  try {
    built = await build();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  // The relay already read the policy and chose to pass bytes first; a file changed in between
  // must not leave the two threads disagreeing.
  if (built.level !== setup.level || !nothingRefused(built.gate))
    return `the policy now reads level ${built.level}, the relay started at ${setup.level}`;
  const log = openSessionLog({
    dir: setup.log.dir,
    name: setup.log.name,
    warn: (line) => send(["warn", line]),
  });
  log.header({
    ...setup.header,
    level: built.level,
    from: built.from,
    policy: built.policy,
    lock: built.lock,
  });
  const announce = (line: string): void => send(["say", line]);
  const onError = (err: unknown): void => {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log.event("relay-error", { error: message });
    announce(`internal error: ${message.split("\n")[0] ?? ""}`);
  };
  const nothing = { hold: (): void => undefined, release: (): void => undefined };
  const nowhere = { write: (): void => undefined }; // the relay wrote the bytes already
  const frames = new LocalFrames({
    gate: built.gate,
    log,
    maxFrameBytes: setup.maxFrameBytes,
    passThrough: true,
    toServer: nowhere,
    toClient: nowhere,
    clientFlow: nothing,
    serverFlow: nothing,
    stats: newStats(),
    announce,
    onError,
    ownLine: (bytes) => send(["own", bytes]),
  });
  const bytesOf = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return (m: ToWorker): void => {
    switch (m[0]) {
      case "c":
        return void frames.push("client", bytesOf(m[1]));
      case "s":
        return void frames.push("server", bytesOf(m[1]));
      case "sb":
        return frames.bridgeLines(m[1]);
      case "ce":
        return frames.end("client");
      case "se":
        return frames.end("server");
      case "ev":
        return log.event(m[1], m[2]);
      case "x":
        return log.stderr(m[1]);
      case "of":
        return log.frame("s2c", Buffer.from(m[1]), "\n", false, true, "effectgate");
      case "sync": {
        const n = m[1];
        return void Promise.all([frames.settled("client"), frames.settled("server")]).then(() =>
          send(["synced", n]),
        );
      }
      case "finish":
        return void frames.finish().then(({ unanswered, stats }) => send(["finished", unanswered, stats]));
      case "exit":
        return log.exit(m[1]);
      case "close":
        log.close();
        return send(["closed"]);
    }
  };
}
