// Issue 17, run time: a call the client cancelled while effectgate held it (asked about at strict,
// or queued behind such a call) was still forwarded once its judgement ended. Through the built CLI
// around the runtime server, judged by what the server received and what the client was sent.
import { describe, expect, it } from "vitest";
import { receivedWork, type Msg } from "./gate-client.js";
import { logEvents, startRuntime } from "./runtime-client.js";

const cancel = (requestId: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId, reason: "the user pressed Esc" },
});

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = find();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`waited in vain for ${what}`);
}

const questions = (messages: unknown[]): Msg[] =>
  messages.filter((m) => (m as Msg).method === "elicitation/create") as Msg[];

/** Every line the server received after the handshake, parsed. */
const work = (record: string): Msg[] =>
  receivedWork(record)
    .map((l) => JSON.parse(l) as Msg)
    .filter((m) => m.method !== "initialize");

describe("a call cancelled while it is held", () => {
  it("asked about at strict: not sent, not answered, its question withdrawn, later frames flow", async () => {
    const r = startRuntime("strict");
    await r.c.initialize({ elicitation: {} });
    r.c.call(1, "run_command", { command: "frobnicate deploy" });
    const q = await waitFor(() => questions(r.c.messages)[0], "the question");
    r.c.send(cancel(1));
    // A frame after the cancel is not stuck behind the call it cancelled.
    r.c.call(2, "canary", {});
    await r.c.answer(2);
    // The user's late yes changes nothing.
    r.c.send({ jsonrpc: "2.0", id: q.id, result: { action: "accept", content: { allow: true } } });
    r.c.call(3, "canary", {});
    await r.c.answer(3);
    await r.c.close();

    expect(r.c.answers(1)).toEqual([]);
    expect(work(r.b.record).map((m) => (m.params as Msg | undefined)?.name ?? m.method)).toEqual([
      "canary",
      "canary",
    ]);
    // The client is told to drop the question about the call it cancelled.
    expect(r.c.messages).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: q.id, reason: "the client cancelled the call" },
    });
    expect(logEvents(r.b, "cancelled-held")).toEqual([{ ids: [1], batch: false }]);
  }, 30_000);

  it("queued behind a question: not sent, while the asked call goes on once allowed", async () => {
    const r = startRuntime("strict");
    await r.c.initialize({ elicitation: {} });
    r.c.call(1, "run_command", { command: "frobnicate test" });
    const q = await waitFor(() => questions(r.c.messages)[0], "the question");
    r.c.call(2, "deep_text", { levels: 1, text: "hi" });
    r.c.send(cancel(2));
    r.c.send({ jsonrpc: "2.0", id: q.id, result: { action: "accept", content: { allow: true } } });
    await r.c.answer(1);
    r.c.call(3, "canary", {});
    await r.c.answer(3);
    await r.c.close();

    expect(r.c.answers(2)).toEqual([]);
    const names = work(r.b.record).map((m) => (m.params as Msg | undefined)?.name ?? m.method);
    // Neither the cancelled call nor its cancel reached the server.
    expect(names).toEqual(["run_command", "canary"]);
    expect(logEvents(r.b, "cancelled-held")).toEqual([{ ids: [2], batch: false }]);
  }, 30_000);

  it("a cancel for a call already sent still reaches the server", async () => {
    // (Sent in the same chunk as the call, a cancel comes while the call is judged: then it is held.)
    const r = startRuntime("strict");
    await r.c.initialize({ elicitation: {} });
    r.c.call(1, "slow", { ms: 2000 });
    await waitFor(() => (work(r.b.record).length > 0 ? true : undefined), "the server to read the call");
    r.c.send(cancel(1));
    r.c.call(2, "canary", {});
    await r.c.answer(2);
    await r.c.close();
    expect(work(r.b.record).map((m) => m.method)).toEqual([
      "tools/call",
      "notifications/cancelled",
      "tools/call",
    ]);
    expect(logEvents(r.b, "cancelled-held")).toEqual([]);
  }, 30_000);

  it("in a batch: nothing of it is sent, the other calls are answered as not sent", async () => {
    const r = startRuntime("strict");
    await r.c.initialize({ elicitation: {} });
    const tc = (id: number, name: string, args: unknown) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    r.c.send([tc(1, "run_command", { command: "frobnicate" }), tc(2, "deep_text", { levels: 1, text: "x" })]);
    await waitFor(() => questions(r.c.messages)[0], "the question");
    r.c.send(cancel(1));
    const other = await r.c.answer(2);
    r.c.call(3, "canary", {});
    await r.c.answer(3);
    await r.c.close();
    expect(r.c.answers(1)).toEqual([]);
    expect(JSON.stringify(other)).toContain("the client cancelled another call in the same batch (id 1)");
    expect(work(r.b.record).map((m) => (m.params as Msg | undefined)?.name)).toEqual(["canary"]);
  }, 30_000);
});
