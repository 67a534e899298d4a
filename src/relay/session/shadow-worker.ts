/**
 * The shadow worker's thread (docs/decisions/0050-observe-work-in-a-worker.md): it rebuilds the
 * relay's gate from the same choices, opens the session log, and reads the chunks the relay has
 * already written on (shadow-session.ts). worker-frames.ts is the other end of the channel.
 * Messages the relay posts while the gate is built wait in the port until it listens.
 */
import { parentPort, workerData } from "node:worker_threads";
import { buildGate } from "../gates/build-gates.js";
import { openShadowSession } from "./shadow-session.js";
import type { FromWorker, ShadowSetup } from "./worker-frames.js";

if (!parentPort) throw new Error("shadow-worker.ts runs only as a worker thread");
const port = parentPort;
const send = (m: FromWorker): void => port.postMessage(m);
const setup = workerData as ShadowSetup;

async function main(): Promise<void> {
  const read = await openShadowSession(setup, () => buildGate(setup.gate), send);
  if (typeof read === "string") return send(["fatal", read]);
  port.on("message", read);
  send(["ready"]);
}

void main();
