// The relay's end of the shadow worker's channel (src/relay/session/worker-frames.ts), against small real
// worker threads that play the worker's part badly on purpose: one that dies mid-session, one that
// is slow to catch up. Judged by what the relay said and whether its sources were paused.
import { PassThrough } from "node:stream";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { Flow, Outbound } from "../../../src/relay/session/flow.js";
import type { FramesIo } from "../../../src/relay/session/relay.js";
import { Shadow } from "../../../src/relay/session/worker-frames.js";

const MiB = 1024 * 1024;

/** A worker from source text (CommonJS): `port` is its end of the channel. */
function workerOf(body: string): Worker {
  return new Worker(`const port = require("node:worker_threads").parentPort;\n${body}`, { eval: true });
}

function io(): { io: FramesIo; client: PassThrough; server: PassThrough; said: string[] } {
  const client = new PassThrough();
  const server = new PassThrough();
  const said: string[] = [];
  const sink = new PassThrough();
  sink.resume();
  return {
    io: {
      toClient: new Outbound(sink, undefined, () => undefined),
      clientFlow: new Flow(client),
      serverFlow: new Flow(server),
      announce: (line) => said.push(line),
      onError: (err) => said.push(`error: ${String(err)}`),
    },
    client,
    server,
    said,
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("shadow worker channel", () => {
  it("a worker that dies mid-session: said once, bytes keep being accepted, the end does not wait", async () => {
    const said: string[] = [];
    const worker = workerOf(`port.on("message", (m) => { if (m[0] === "s") process.exit(3); });`);
    const shadow = new Shadow(worker, 256 * MiB, (line) => said.push(line));
    const frames = shadow.frames(io().io);
    expect(frames.push("server", Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n'))).toBe(true);
    await new Promise((resolve) => worker.once("exit", resolve));
    expect(frames.push("server", Buffer.from('{"jsonrpc":"2.0","id":2,"result":{}}\n'))).toBe(true);
    frames.end("server");
    await frames.settled("server");
    expect(await frames.finish()).toEqual({
      unanswered: null,
      stats: expect.objectContaining({ s2cFrames: 0 }),
    });
    await shadow.close();
    expect(said).toEqual([
      "effectgate: the shadow worker stopped (it exited with code 3); relaying goes on, but this session is no longer logged or checked",
    ]);
  });

  it("pauses both sources once 16 MiB are in flight, and resumes them when the worker has caught up", async () => {
    // Answers a sync only after a while, like a worker busy with a big scan.
    const worker = workerOf(
      `port.on("message", (m) => { if (m[0] === "sync") setTimeout(() => port.postMessage(["synced", m[1]]), 300); });`,
    );
    const shadow = new Shadow(worker, 256 * MiB, () => undefined);
    const { io: sides, client, server } = io();
    const frames = shadow.frames(sides);
    const chunk = Buffer.alloc(MiB, 0x61);
    for (let i = 0; i < 15; i++) frames.push("client", chunk);
    expect(client.isPaused() || server.isPaused()).toBe(false);
    frames.push("client", chunk); // 16 MiB, and each message counts a little more than its bytes
    expect([client.isPaused(), server.isPaused()]).toEqual([true, true]);
    await tick(100);
    expect([client.isPaused(), server.isPaused()]).toEqual([true, true]);
    for (let waited = 0; waited < 10_000 && client.isPaused(); waited += 50) await tick(50);
    expect([client.isPaused(), server.isPaused()]).toEqual([false, false]);
    await worker.terminate();
  });
});
