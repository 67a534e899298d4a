/**
 * `effectgate --url` against a real Streamable HTTP server of the 2025-03-26…2025-11-25 kind
 * (SDK 1.x server transport, sessions, resumable streams), driven by the official SDK client
 * over stdio. Judged by what reached the server.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { legacyServer, type RemoteFixture } from "../../helpers/remote-servers.js";
import { RawClient } from "../../e2e/harness.js";
import { bridged, remoteSandbox } from "./harness.js";

let fx: RemoteFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** The same conversation, whoever the client talks to. */
async function conversation(client: Client): Promise<unknown[]> {
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
  const out: unknown[] = [];
  out.push((await client.listTools()).tools.map((t) => [t.name, t.description, t.inputSchema]));
  out.push(await client.callTool({ name: "echo", arguments: { text: "héllo \u2028 wörld" } }));
  out.push(await client.callTool({ name: "read_issue", arguments: { number: 7 } }));
  out.push(await client.callTool({ name: "countdown", arguments: { n: 3 } }));
  out.push(await client.callTool({ name: "write_file", arguments: { path: "notes/todo.md", content: "x" } }));
  out.push(await client.callTool({ name: "no_such_tool", arguments: {} }));
  out.push(logs);
  return out;
}

function logText(home: string): string {
  const dir = join(home, ".effectgate", "sessions");
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
}

describe("effectgate --url, Streamable HTTP with sessions", () => {
  it("gives the client what a direct connection gives it", async () => {
    fx = await legacyServer();
    const direct = new Client({ name: "direct", version: "1" });
    await direct.connect(new StreamableHTTPClientTransport(new URL(fx.url)));
    const expected = await conversation(direct);
    await direct.close();

    const b = await bridged(fx.url, { args: ["--level", "enforce"] });
    const got = await conversation(b.client);
    await b.close();
    expect(got).toEqual(expected);
  });

  it("sends the gate's bytes, the session id and protocol version on every request, and DELETE at the end", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url, { args: ["--level", "enforce"] });
    await b.client.callTool({ name: "echo", arguments: { text: "a" } });
    await b.client.close();
    const log = logText(b.home);
    b.close().catch(() => undefined);

    const [init, ...rest] = fx.requests;
    expect(init?.method).toBe("POST");
    expect(init?.headers["mcp-session-id"]).toBeUndefined();
    const sid = rest[0]?.headers["mcp-session-id"];
    expect(typeof sid).toBe("string");
    for (const r of rest) {
      expect(r.headers["mcp-session-id"], `${r.method} ${r.body}`).toBe(sid);
      expect(r.headers["mcp-protocol-version"], `${r.method} ${r.body}`).toBe("2025-11-25");
    }
    expect(
      rest.some((r) => r.method === "GET" && String(r.headers["accept"]).includes("text/event-stream")),
    ).toBe(true);
    expect(rest[rest.length - 1]?.method).toBe("DELETE");
    // Every body is the line the relay logged as the client's, byte for byte.
    const c2s = log
      .split("\n")
      .filter((l) => l.includes('"dir":"c2s"'))
      .map((l) => JSON.parse(l) as { json?: unknown; text?: string });
    const posted = fx.requests.filter((r) => r.method === "POST").map((r) => r.body);
    expect(posted.length).toBe(c2s.length);
    for (const [i, rec] of c2s.entries()) {
      const text = rec.text ?? JSON.stringify(rec.json);
      expect(JSON.parse(posted[i] as string)).toEqual(JSON.parse(text));
    }
  });

  it("refuses at enforce a call whose effects the policy denies; the server never sees it", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url, { args: ["--level", "enforce"] });
    const refused = await b.client.callTool({
      name: "write_file",
      arguments: { path: "~/.ssh/authorized_keys", content: "ssh-ed25519 AAAA attacker" },
    });
    const allowed = await b.client.callTool({
      name: "write_file",
      arguments: { path: "src/a.ts", content: "x" },
    });
    await b.close();
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/effectgate refused/);
    expect(allowed.isError).toBeFalsy();
    expect(fx.calls().map((c) => c.arguments["path"])).toEqual(["src/a.ts"]);
  });

  it("starts a new session when the server forgets the old one (404), and the call still goes through", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url);
    await b.client.callTool({ name: "echo", arguments: { text: "before" } });
    fx.forgetSessions();
    const after = await b.client.callTool({ name: "echo", arguments: { text: "after" } });
    const stderr = b.stderr();
    await b.close();
    expect(after.content).toEqual([{ type: "text", text: "after" }]);
    const inits = fx.messages().filter((m) => m["method"] === "initialize");
    expect(inits).toHaveLength(2);
    // The second initialize is the client's own, under an id of effectgate's.
    expect(inits[1]?.["params"]).toEqual(inits[0]?.["params"]);
    expect(inits[1]?.["id"]).not.toEqual(inits[0]?.["id"]);
    expect(fx.calls().map((c) => c.arguments["text"])).toEqual(["before", "after", "after"]);
    expect(stderr).toMatch(/no longer knows this session \(404\)/);
  });

  it("picks a dropped stream up again with Last-Event-ID: no message lost, none twice", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url);
    const logs: unknown[] = [];
    b.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    const result = await b.client.callTool({ name: "countdown", arguments: { n: 6, drop: true } });
    await b.close();
    expect(result.content).toEqual([{ type: "text", text: "lift-off" }]);
    expect(logs).toEqual(["step 6", "step 5", "step 4", "step 3", "step 2", "step 1"]);
    const resumed = fx.requests.filter((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined);
    expect(resumed.length).toBeGreaterThan(0);
  });

  it("keeps many requests in flight: a quick answer is not held behind a slow one", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url);
    const order: string[] = [];
    const slow = b.client.callTool({ name: "sleep", arguments: { ms: 1500 } }).then(() => order.push("slow"));
    await new Promise((r) => setTimeout(r, 200));
    const quick = b.client
      .callTool({ name: "echo", arguments: { text: "q" } })
      .then(() => order.push("quick"));
    await Promise.all([slow, quick]);
    await b.close();
    expect(order).toEqual(["quick", "slow"]);
  });

  it("relays the server's requests to the client and the client's answers back", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url, { capabilities: { elicitation: {} } });
    b.client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    const r = await b.client.callTool({ name: "ask_name", arguments: {} });
    await b.close();
    expect(JSON.parse((r.content as Array<{ text: string }>)[0]!.text)).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    const answers = fx.messages().filter((m) => m["method"] === undefined && m["result"] !== undefined);
    expect(answers).toHaveLength(1);
  });

  it("relays a request the server sends on the session's GET stream, and the client's answer back", async () => {
    fx = await legacyServer();
    const b = await bridged(fx.url, { capabilities: { elicitation: {} } });
    let asked!: (message: string) => void;
    const question = new Promise<string>((r) => (asked = r));
    b.client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked(req.params.message);
      return { action: "accept", content: { name: "Ada" } };
    });
    const first = await b.client.callTool({ name: "ask_later", arguments: {} });
    expect(first.content).toEqual([{ type: "text", text: "asked" }]);
    expect(await question).toBe("What is your name, later?");
    let answered: unknown = null;
    for (let i = 0; i < 50 && answered === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const r = await b.client.callTool({ name: "ask_later", arguments: { read: true } });
      answered = JSON.parse((r.content as Array<{ text: string }>)[0]!.text);
    }
    await b.close();
    expect(answered).toEqual({ action: "accept", content: { name: "Ada" } });
    // It came on the GET stream: no POST was open when the server asked.
    expect(fx.requests.some((r) => r.method === "GET")).toBe(true);
  });

  it("sends --header values from the environment, and the log holds their names only", async () => {
    fx = await legacyServer();
    const box = remoteSandbox();
    const env = { ...box.env, MY_API_KEY: "sk-test-0123456789abcdef" };
    const b = await bridged(fx.url, { env, home: box.home, args: ["--header", "X-Api-Key: ${MY_API_KEY}"] });
    await b.client.callTool({ name: "echo", arguments: { text: "k" } });
    await b.client.close();
    const log = logText(box.home);
    box.cleanup();
    for (const r of fx.requests) expect(r.headers["x-api-key"]).toBe("sk-test-0123456789abcdef");
    expect(log).not.toContain("sk-test-0123456789abcdef");
    expect(log).toContain("X-Api-Key: (value not logged, built from $MY_API_KEY)");
  });

  it("posts the client's line byte for byte (spacing, escapes), not the SDK's re-serialised text", async () => {
    fx = await legacyServer();
    const box = remoteSandbox();
    const raw = new RawClient(["--level", "enforce", "--url", fx.url], box.env);
    await raw.initialize();
    const line =
      '{ "jsonrpc" : "2.0", "id" : 7 ,\t"method":"tools/call","params":{"name":"echo","arguments":{"text":"caf\\u00e9 \\/ ok"}}}';
    raw.child.stdin!.write(`${line}\n`);
    const answer = await raw.next();
    await raw.close();
    box.cleanup();
    expect(answer["result"]).toEqual({ content: [{ type: "text", text: "café / ok" }] });
    expect(fx.requests.filter((r) => r.body.includes('"tools/call"')).map((r) => r.body)).toEqual([line]);
  });

  it("answers a request id beyond 2^53 with the client's own digits", async () => {
    fx = await legacyServer();
    const box = remoteSandbox();
    const raw = new RawClient(["--url", fx.url], box.env);
    await raw.initialize();
    raw.child.stdin!.write(
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"echo","arguments":{"text":"big"}}}\n',
    );
    const lines: string[] = [];
    await new Promise<void>((resolve) => {
      raw.child.stdout!.on("data", (d: string) => {
        lines.push(d);
        if (lines.join("").includes("\n")) resolve();
      });
    });
    await raw.close();
    box.cleanup();
    expect(lines.join("")).toMatch(/^\{[^\n]*"id":9007199254740993[,}]/);
  });

  it("answers a request it cannot deliver with an error under its id", async () => {
    const box = remoteSandbox();
    const raw = new RawClient(["--url", "http://127.0.0.1:9/mcp"], box.env);
    const answer = await raw.request({
      id: "a",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await raw.close();
    box.cleanup();
    expect(answer["id"]).toBe("a");
    expect((answer["error"] as { message: string }).message).toMatch(/could not deliver this request/);
  });
});
