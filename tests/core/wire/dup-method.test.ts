import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ambiguousJudgedMethod, methodSpellings } from "../../../src/core/wire/judged-call-text.js";
import { DoubleGate } from "../../relay/gate-double.js";
import { fixture, startRelay, tempDir } from "../../relay/helpers.js";

// A frame with duplicate keys is read last-wins by JSON.parse and maybe first-wins by the
// server. If any spelling of its method is a judged one, the relay must hold it as that call.

describe("methodSpellings", () => {
  it("lists every message-level method value, duplicates and escapes included", () => {
    expect(methodSpellings('{"method":"tools/call","id":1,"method":"ping"}')).toEqual(["tools/call", "ping"]);
    expect(methodSpellings('{"m\\u0065thod" : "tools\\/call","method":"ping"}')).toEqual([
      "tools/call",
      "ping",
    ]);
    expect(methodSpellings('[{"method":"a"},{"method":"b","method":"c"}]')).toEqual(["a", "b", "c"]);
  });

  it("ignores method keys inside params, and reports non-string values as unknown", () => {
    expect(methodSpellings('{"method":"ping","params":{"method":"tools/call"}}')).toEqual(["ping"]);
    expect(methodSpellings('{"method":1,"method":{"x":"y"},"method":null}')).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("ambiguousJudgedMethod finds a judged spelling, or nothing", () => {
    expect(ambiguousJudgedMethod('{"method":"resources/read","method":"ping"}')).toBe("resources/read");
    expect(ambiguousJudgedMethod('{"method":"TOOLS/CALL","method":"ping"}')).toBe("tools/call");
    expect(
      ambiguousJudgedMethod('{"method":"ping","method":"ping","params":{"a":"tools/call"}}'),
    ).toBeUndefined();
  });
});

function setup() {
  const gate = new DoubleGate();
  const rec = join(tempDir(), "seen.jsonl");
  const h = startRelay(["node", fixture("echo.mjs"), rec], { gate });
  const seen = (): string => (existsSync(rec) ? readFileSync(rec, "utf8") : "");
  return { h, gate, seen };
}

const ARGS = '"params":{"name":"write_file","arguments":{"path":"/tmp/x","content":"x"}}';

describe("duplicate method keys through the relay", () => {
  it("a request whose first method is tools/call and last is ping is held and refused", async () => {
    const { h, gate, seen } = setup();
    h.send(`{"jsonrpc":"2.0","id":"dm","method":"tools/call","method":"ping",${ARGS}}\n`);
    const got = JSON.parse(await h.next()) as { id: unknown; result: { isError: boolean } };
    expect(got.id).toBe("dm");
    expect(got.result.isError).toBe(true);
    h.end();
    await h.result;
    expect(gate.judged).toHaveLength(1);
    expect(gate.judged[0]?.method).toBe("tools/call");
    expect(gate.judged[0]?.problem).toMatch(/duplicate key "method"/);
    expect(seen()).toBe("");
  });

  it("the same without an id (read as a notification) is held, not forwarded", async () => {
    const { h, gate, seen } = setup();
    h.send(`{"jsonrpc":"2.0","method":"tools/call","method":"notifications/initialized",${ARGS}}\n`);
    h.send('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(JSON.parse(await h.next())).toMatchObject({ id: 2 });
    h.end();
    await h.result;
    expect(gate.judged.map((j) => j.method)).toEqual(["tools/call"]);
    expect(seen()).toBe('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(h.stderr()).toMatch(/no usable id/);
  });

  it("an escaped spelling and a batch member are held too", async () => {
    const { h, gate, seen } = setup();
    h.send(`{"jsonrpc":"2.0","id":3,"method":"tools\\/call","method":"ping",${ARGS}}\n`);
    expect(JSON.parse(await h.next())).toMatchObject({ id: 3, result: { isError: true } });
    h.send(
      `[{"jsonrpc":"2.0","id":4,"method":"prompts/get","method":"ping","params":{}},{"jsonrpc":"2.0","id":5,"method":"ping"}]\n`,
    );
    const batch = JSON.parse(await h.next()) as Array<{ id: unknown }>;
    expect(batch.map((m) => m.id)).toEqual([4, 5]);
    h.end();
    await h.result;
    expect(gate.judged.map((j) => j.method)).toEqual(["tools/call", "prompts/get"]);
    expect(seen()).toBe("");
  });

  it("duplicate keys with no judged spelling are forwarded unchanged", async () => {
    const { h, gate, seen } = setup();
    const frames = [
      '{"jsonrpc":"2.0","id":6,"method":"ping","method":"ping"}\n',
      '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":"tools/call","a":1}}\n',
    ];
    for (const f of frames) h.send(f);
    expect(JSON.parse(await h.next())).toMatchObject({ id: 6 });
    expect(JSON.parse(await h.next())).toMatchObject({ id: 7 });
    h.end();
    await h.result;
    expect(gate.judged).toEqual([]);
    expect(seen()).toBe(frames.join(""));
  });
});
