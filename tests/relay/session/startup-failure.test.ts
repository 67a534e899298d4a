import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { answerFirstRequest } from "../../../src/relay/session/startup-failure.js";

const failure = { exitCode: 127, problems: ["cannot start the server: nope: command not found on PATH"] };

function streams(): { input: PassThrough; output: PassThrough; written: () => string[] } {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on("data", (d: Buffer) => chunks.push(d.toString("utf8")));
  return { input, output, written: () => chunks.join("").split("\n").filter(Boolean) };
}

describe("answering the first request when the relay cannot start", () => {
  it("waits past notifications and torn lines, answers the first request once, then stops reading", async () => {
    const s = streams();
    const done = answerFirstRequest(s, failure, 60_000);
    s.input.write('{"jsonrpc":"2.0","method":"notifications/x"}\n{"jsonrpc":"2.0","id":4,');
    s.input.write('"method":"initialize"}\n{"jsonrpc":"2.0","id":5,"method":"tools/list"}\n');
    await done;
    const lines = s.written();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 4, error: { code: -32603 } });
    expect(lines[0]).toContain("command not found on PATH");
    expect(s.input.listenerCount("data")).toBe(0);
  });

  it("answers a last request the client sent without a newline before closing", async () => {
    const s = streams();
    const done = answerFirstRequest(s, failure, 60_000);
    s.input.end('{"jsonrpc":"2.0","id":"a","method":"initialize"}');
    await done;
    expect(JSON.parse(s.written()[0]!)).toMatchObject({ id: "a" });
  });

  it("gives up without an answer when the client closes, or sends no request in time", async () => {
    const closed = streams();
    const done = answerFirstRequest(closed, failure, 60_000);
    closed.input.end('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await done;
    expect(closed.written()).toEqual([]);

    const silent = streams();
    await answerFirstRequest(silent, failure, 20);
    expect(silent.written()).toEqual([]);
    expect(silent.input.listenerCount("data")).toBe(0);
  });

  it("does not wait for a terminal: a person typing sees stderr at once", async () => {
    const s = streams();
    Object.assign(s.input, { isTTY: true });
    await answerFirstRequest(s, failure, 60_000);
    expect(s.input.listenerCount("data")).toBe(0);
    expect(s.written()).toEqual([]);
  });
});
