/**
 * The shadow worker's thread (docs/decisions/0050-observe-work-in-a-worker.md): it rebuilds the
 * relay's gate from the same choices, opens the session log, and reads the chunks the relay has
 * already written on — split, logged, judged and observed exactly as on the relay's own thread
 * (LocalFrames in pass-through). worker-frames.ts is the other end of the channel.
 */
import { parentPort, workerData } from "node:worker_threads";
import { nothingRefused } from "../../core/gate/gate.js";
import { openSessionLog } from "../../log/writer.js";
import { buildGate } from "../gates/build-gates.js";
import { LocalFrames } from "./frames.js";
import { newStats } from "./types.js";
import type { FromWorker, ShadowSetup, ToWorker } from "./worker-frames.js";

if (!parentPort) throw new Error("shadow-worker.ts runs only as a worker thread");
const port = parentPort;
const send = (m: FromWorker): void => port.postMessage(m);
const setup = workerData as ShadowSetup;

async function main(): Promise<void> {
  let built;
  try {
    built = await buildGate(setup.gate);
  } catch (err) {
    return send(["fatal", err instanceof Error ? err.message : String(err)]);
  }
  // The relay already read the policy and chose to pass bytes first; a file changed in between
  // must not leave the two threads disagreeing.
  if (built.level !== setup.level || !nothingRefused(built.gate)) {
    return send(["fatal", `the policy now reads level ${built.level}, the relay started at ${setup.level}`]);
  }
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
  port.on("message", (m: ToWorker) => {
    switch (m[0]) {
      case "c":
        return void frames.push("client", bytesOf(m[1]));
      case "s":
        return void frames.push("server", bytesOf(m[1]));
      case "ce":
        return frames.end("client");
      case "se":
        return frames.end("server");
      case "ev":
        return log.event(m[1], m[2]);
      case "x":
        return log.stderr(m[1]);
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
  });
  send(["ready"]);
}

void main();
