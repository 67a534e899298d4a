import { describe, expect, it } from "vitest";
import { STARTUP_ERROR_CODE, startupAnswer, startupMessage } from "../../../src/core/wire/startup-answer.js";

const config = { exitCode: 78, problems: ["/p/policy.yaml:3: bogus: expected no other keys, got bogus"] };
const server = { exitCode: 127, problems: ["cannot start the server: nope: command not found on PATH"] };

describe("the answer to the first request of a relay that cannot start", () => {
  it("is a JSON-RPC error under the request's id that names every problem and the exit code", () => {
    const frame = startupAnswer(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize" }), config);
    expect(JSON.parse(frame!)).toEqual({
      jsonrpc: "2.0",
      id: 0,
      error: {
        code: STARTUP_ERROR_CODE,
        message:
          "effectgate cannot start (exit 78, configuration error): /p/policy.yaml:3: bogus: expected no other keys, got bogus",
        data: { effectgate: { exitCode: 78, problems: config.problems } },
      },
    });
    expect(STARTUP_ERROR_CODE).toBe(-32603);
  });

  it("says each kind of failure in its own words", () => {
    expect(startupMessage(server)).toBe(
      "effectgate cannot start (exit 127): cannot start the server: nope: command not found on PATH",
    );
    expect(startupMessage({ exitCode: 2, problems: ["expected -- followed by the server command"] })).toBe(
      "effectgate cannot start (exit 2, usage error): expected -- followed by the server command",
    );
    expect(startupMessage({ exitCode: 78, problems: ["a", "b"] })).toMatch(/: a; b$/);
  });

  it("keeps the id's JSON type, and the client's digits for an integer past 2^53", () => {
    const str = startupAnswer('{"jsonrpc":"2.0","id":"1","method":"initialize"}', server)!;
    expect(JSON.parse(str).id).toBe("1");
    const big = startupAnswer('{"jsonrpc":"2.0","id":9007199254740993,"method":"initialize"}', server)!;
    expect(big).toContain('"id":9007199254740993,');
  });

  it("answers every request of a batch, in one array, and nothing else in it", () => {
    const batch = startupAnswer(
      JSON.stringify([
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 7, method: "tools/list" },
        { jsonrpc: "2.0", id: "x", method: "initialize" },
      ]),
      server,
    )!;
    const answers = JSON.parse(batch) as { id: unknown; error: { code: number } }[];
    expect(answers.map((a) => a.id)).toEqual([7, "x"]);
    expect(answers.every((a) => a.error.code === STARTUP_ERROR_CODE)).toBe(true);
  });

  it("answers nothing for frames that hold no request: the relay waits for one", () => {
    for (const frame of [
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      "not json",
      "",
      '[{"jsonrpc":"2.0","method":"notifications/cancelled"}]',
      '{"jsonrpc":"2.0","id":1,"id":2,"method":"initialize"}',
    ])
      expect(startupAnswer(frame, server), frame).toBeUndefined();
  });
});

describe("the id of the answer to a relay that cannot start", () => {
  it("is the parsed id unless JSON.parse rounded it", () => {
    expect(startupAnswer('{"jsonrpc":"2.0","id":1e0,"method":"initialize"}', server)).toContain('"id":1,');
    expect(startupAnswer('[{"jsonrpc":"2.0","id":2.0,"method":"initialize"}]', server)).toContain('"id":2,');
  });

  it("keeps the client's digits of a batch member's id, by that member's place", () => {
    const batch = startupAnswer(
      '[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":9007199254740993,"method":"initialize"}]',
      server,
    )!;
    expect(batch).toMatch(/^\[\{"jsonrpc":"2\.0","id":9007199254740993,"error":/);
    expect(batch.endsWith("}]")).toBe(true);
  });
});
