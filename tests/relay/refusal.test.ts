import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DoubleGate } from "./gate-double.js";
import { fixture, startRelay, tempDir } from "./helpers.js";

function setup(gate = new DoubleGate()) {
  const rec = join(tempDir(), "seen.jsonl");
  const h = startRelay(["node", fixture("echo.mjs"), rec], { gate });
  const seen = (): string => (existsSync(rec) ? readFileSync(rec, "utf8") : "");
  return { h, gate, seen };
}

const call = (id: unknown, args: Record<string, unknown>, name = "write_file", extra = "") =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${JSON.stringify(args)}${extra}}}\n`;

async function finish(h: ReturnType<typeof setup>["h"]) {
  h.end();
  return h.result;
}

describe("refusals through a test-double gate", () => {
  it("refuses with the same number id; the server never sees the call", async () => {
    const { h, seen } = setup();
    h.send(call(7, { path: "/home/u/.ssh/secret" }));
    const got = JSON.parse(await h.next()) as Record<string, unknown>;
    expect(got).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "refused write_file: it touches a secret" }], isError: true },
    });
    h.send(call(8, { path: "/tmp/ok" }));
    expect(JSON.parse(await h.next())).toMatchObject({ id: 8 });
    const r = await finish(h);
    expect(seen()).not.toContain("secret");
    expect(seen()).toContain('"id":8');
    expect(r.stats).toMatchObject({ refused: 1 });
    // Logged before written: the refused event precedes the refusal frame.
    const idx = h.log.records.findIndex((x) => x.kind === "event" && x.ev === "refused");
    const frameIdx = h.log.records.findIndex(
      (x) => x.kind === "frame" && x.dir === "s2c" && (x.text ?? "").includes("touches a secret"),
    );
    expect(idx).toBeGreaterThanOrEqual(0);
    expect(frameIdx).toBeGreaterThan(idx);
  });

  it("refuses with the same string id, and swallows the client's cancel for it", async () => {
    const { h, seen } = setup();
    h.send(call("7", { path: "secret" }));
    const got = JSON.parse(await h.next()) as { id: unknown };
    expect(got.id).toBe("7");
    h.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}}\n');
    h.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n');
    await finish(h);
    expect(seen()).toBe('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n');
  });

  it("adds resultType to refusals of modern requests", async () => {
    const { h } = setup();
    h.send(
      call(1, { p: "secret" }, "w", ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}'),
    );
    expect(JSON.parse(await h.next())).toMatchObject({
      id: 1,
      result: { resultType: "complete", isError: true },
    });
    await finish(h);
  });

  it("refuses a whole batch with one refused member and forwards none of it", async () => {
    const { h, seen } = setup();
    const batch = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "read", arguments: { path: "/tmp/a" } },
      },
      {
        jsonrpc: "2.0",
        id: "2",
        method: "tools/call",
        params: { name: "write", arguments: { path: "secret" } },
      },
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/progress", params: {} },
    ];
    h.send(JSON.stringify(batch) + "\n");
    const answer = JSON.parse(await h.next()) as Array<{
      id: unknown;
      result: { content: Array<{ text: string }>; isError: boolean };
    }>;
    expect(answer.map((a) => a.id)).toEqual([1, "2", 3]);
    expect(answer[1]?.result.content[0]?.text).toBe("refused write: it touches a secret");
    expect(answer[0]?.result.content[0]?.text).toMatch(
      /^Not sent: effectgate refused another call in the same batch/,
    );
    expect(answer.every((a) => a.result.isError)).toBe(true);
    // A batch without refusals goes through unchanged.
    const ok = JSON.stringify([batch[0], batch[2]]);
    h.send(ok + "\n");
    await h.next();
    await h.next();
    await finish(h);
    expect(seen()).toBe(ok + "\n");
  });

  it("gives a frame with duplicate keys a problem", async () => {
    const { h, gate, seen } = setup();
    h.send(
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"w","arguments":{"path":"/tmp/ok","path":"/x"}}}\n',
    );
    const got = JSON.parse(await h.next()) as { id: number; result: { content: Array<{ text: string }> } };
    expect(got.id).toBe(9);
    expect(gate.judged[0]?.problem).toBe('duplicate key "path"');
    expect(got.result.content[0]?.text).toContain("duplicate key");
    await finish(h);
    expect(seen()).toBe("");
  });

  it("gives a batch with a malformed member, non-object arguments and bad ids a problem", async () => {
    const { h, gate, seen } = setup();
    h.send(
      '[{"jsonrpc":"2.0","id":5},{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"r","arguments":{}}}]\n',
    );
    expect(JSON.parse(await h.next())).toMatchObject([{ id: 6, result: { isError: true } }]);
    h.send('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"r","arguments":"path=/etc"}}\n');
    expect(JSON.parse(await h.next())).toMatchObject({ id: 10 });
    h.send('{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"r","arguments":{}}}\n');
    expect(JSON.parse(await h.next())).toMatchObject({ id: null, result: { isError: true } });
    h.send('{"jsonrpc":"2.0","method":"tools/call","params":{"name":"r","arguments":{}}}\n');
    h.send(
      '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"r","arguments":{"path":"/etc/x"}}\n',
    );
    expect(JSON.parse(await h.next())).toMatchObject({ id: 11, result: { isError: true } });
    await finish(h);
    expect(gate.judged.map((j) => j.problem)).toEqual([
      "a batch with a malformed member (neither a request, a notification nor a response)",
      "tools/call: expected arguments to be an object, got string",
      "expected a string or integer id, got null",
      "tools/call without an id",
      expect.stringMatching(/^the frame is not valid JSON but looks like a judged call/),
    ]);
    expect(seen()).toBe("");
    expect(h.stderr()).toMatch(/carried no usable id/);
  });

  it("queues later frames behind a held call, in order", async () => {
    const gate = new DoubleGate();
    let release: () => void = () => undefined;
    gate.hold = new Promise((r) => (release = r));
    const { h, seen } = setup(gate);
    h.send(call(1, { path: "/tmp/a" }));
    h.send('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await new Promise((r) => setTimeout(r, 100));
    expect(seen()).toBe("");
    gate.hold = undefined;
    release();
    expect(JSON.parse(await h.next())).toMatchObject({ id: 1 });
    expect(JSON.parse(await h.next())).toMatchObject({ id: 2 });
    await finish(h);
    expect(
      seen()
        .split("\n")
        .map((l) => (l ? (JSON.parse(l) as { id: number }).id : null)),
    ).toEqual([1, 2, null]);
  });

  it("asks the client through elicitation and consumes the answer", async () => {
    const { h, gate, seen } = setup();
    h.send(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}\n',
    );
    await h.next();
    h.send(call(1, {}, "ask"));
    const ask = JSON.parse(await h.next()) as {
      id: string;
      method: string;
      params: { mode: string; requestedSchema: { properties: Record<string, { type: string }> } };
    };
    expect(ask).toMatchObject({ method: "elicitation/create", params: { mode: "form" } });
    expect(ask.id).toMatch(/^effectgate-ask-[0-9a-f]{24}-1-[0-9a-f]{12}$/);
    expect(ask.params.requestedSchema.properties.allow?.type).toBe("boolean");
    h.send(`{"jsonrpc":"2.0","id":"${ask.id}","result":{"action":"accept","content":{"allow":true}}}\n`);
    expect(JSON.parse(await h.next())).toMatchObject({
      id: 1,
      result: { content: [{ text: expect.stringContaining("tools/call") }] },
    });
    h.send(call(2, {}, "ask"));
    const second = (JSON.parse(await h.next()) as { id: string }).id;
    expect(second).toMatch(/-2-[0-9a-f]{12}$/);
    expect(second.slice(0, 40)).toBe(ask.id.slice(0, 40)); // one nonce per session
    h.send(`{"jsonrpc":"2.0","id":"${second}","result":{"action":"accept","content":{"allow":false}}}\n`);
    expect(JSON.parse(await h.next())).toMatchObject({
      id: 2,
      result: { isError: true, content: [{ text: "the user said decline" }] },
    });
    await finish(h);
    expect(gate.asks).toEqual(["accept", "decline"]);
    expect(seen()).not.toContain("effectgate-ask");
  });

  it("offers no ask when the client did not declare elicitation", async () => {
    const { h, gate } = setup();
    h.send(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
    );
    await h.next();
    h.send(call(1, {}, "ask"));
    expect(JSON.parse(await h.next())).toMatchObject({
      id: 1,
      result: { content: [{ text: "nobody to ask" }] },
    });
    await finish(h);
    expect(gate.canAsk).toEqual([false]);
  });

  it("shows responses to the gate with their request, following tasks and input_required retries", async () => {
    const { h, gate } = setup();
    h.send(call(1, { path: "/tmp/a" }, "slow", ',"task":{"ttl":1000}'));
    expect(JSON.parse(await h.next())).toMatchObject({ id: 1, result: { task: { taskId: "task-1" } } });
    h.send('{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"task-1"}}\n');
    expect(JSON.parse(await h.next())).toMatchObject({ id: 2 });
    const meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}';
    h.send(call(3, {}, "needs-input", meta));
    expect(JSON.parse(await h.next())).toMatchObject({ id: 3, result: { resultType: "input_required" } });
    h.send(call(4, {}, "needs-input", `${meta},"requestState":"state-1","inputResponses":{}`));
    expect(JSON.parse(await h.next())).toMatchObject({ id: 4, result: { resultType: "complete" } });
    await finish(h);
    expect(gate.observed.map((o) => [o.request.method, o.request.id, o.response.id])).toEqual([
      ["tools/call", 1, 1],
      ["tools/call", 1, 2],
      ["tools/call", 3, 3],
      // A retry is shown as the call that got the state and as itself (decision 0063).
      ["tools/call", 3, 4],
      ["tools/call", 4, 4],
    ]);
    expect(gate.judged.map((j) => [j.id, j.modern])).toEqual([
      [1, false],
      [3, true],
      [4, true],
    ]);
    expect(h.log.events("handshake")).toMatchObject([{ era: "modern", protocolVersion: "2026-07-28" }]);
  });
});

describe("correlation", () => {
  it('matches out-of-order responses to their requests, keeping 1 and "1" apart', async () => {
    const gate = new DoubleGate();
    const h = startRelay(["node", fixture("reverse.mjs")], { gate });
    h.send(call(1, {}, "number-one"));
    h.send(call("1", {}, "string-one"));
    h.send(call(2, {}, "two"));
    const ids = [await h.next(), await h.next(), await h.next()].map(
      (l) => (JSON.parse(l) as { id: unknown }).id,
    );
    expect(ids).toEqual([2, "1", 1]);
    h.end();
    await h.result;
    expect(gate.observed.map((o) => [o.response.id, (o.request.params as { name: string }).name])).toEqual([
      [2, "two"],
      ["1", "string-one"],
      [1, "number-one"],
    ]);
  });
});

describe("server messages", () => {
  it("shows a server→client request to the gate before the client gets it", async () => {
    const gate = new DoubleGate();
    const h = startRelay(["node", fixture("roots-list.mjs")], { gate });
    h.send(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}\n',
    );
    await h.next();
    expect(gate.observed.map((o) => o.request.method)).toEqual(["initialize"]);
    h.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const req = JSON.parse(await h.next()) as { method: string };
    expect(req.method).toBe("roots/list");
    expect(gate.serverMessages).toEqual([{ jsonrpc: "2.0", id: 0, method: "roots/list" }]);
    h.end();
    await h.result;
  });
});
