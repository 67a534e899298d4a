/**
 * `effectgate --url` against a real 2026-07-28 server (SDK 2.x createMcpHandler, stateless),
 * driven by the SDK 2.x client pinned to 2026-07-28 over stdio.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { modernServer, type RemoteFixture } from "../../helpers/remote-servers.js";
import { RawClient } from "../../e2e/harness.js";
import { bridgedModern, remoteSandbox } from "./harness.js";

let fx: RemoteFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function talk(client: Client): Promise<unknown[]> {
  return [
    (await client.listTools()).tools.map((t) => [t.name, t.inputSchema]),
    await client.callTool({ name: "echo", arguments: { text: "héllo" } }),
    await client.callTool({ name: "query", arguments: { region: "eu-west 1 ✓", sql: "select 1" } }),
    await client.callTool({ name: "read_issue", arguments: { number: 9 } }),
  ];
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("effectgate --url, 2026-07-28", () => {
  it("gives the client what a direct connection gives it, the invalid x-mcp-header tool left out of both", async () => {
    fx = await modernServer();
    const direct = new Client(
      { name: "direct", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await direct.connect(new StreamableHTTPClientTransport(new URL(fx.url)));
    const expected = await talk(direct);
    await direct.close();

    const b = await bridgedModern(fx.url, { args: ["--level", "enforce"] });
    const got = await talk(b.client);
    const stderr = b.stderr();
    await b.close();
    expect(got).toEqual(expected);
    expect((got[0] as Array<[string]>).map(([n]) => n)).not.toContain("bad_header");
    expect(stderr).toMatch(/tool "bad_header" left out of tools\/list/);
  });

  it("derives the headers from the body it judged: no session, no GET, Mcp-Param from x-mcp-header", async () => {
    fx = await modernServer();
    const b = await bridgedModern(fx.url);
    await b.client.listTools();
    await b.client.callTool({ name: "query", arguments: { region: "eu", sql: "select 2" } });
    await b.close();
    const call = fx.requests.find((r) => r.body.includes('"tools/call"'));
    expect(call?.headers).toMatchObject({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "query",
      "mcp-param-region": "eu",
    });
    for (const r of fx.requests) {
      expect(r.method).toBe("POST");
      expect(r.headers["mcp-session-id"]).toBeUndefined();
    }
  });

  it("cancels by closing the request's stream, not by posting notifications/cancelled", async () => {
    fx = await modernServer();
    const b = await bridgedModern(fx.url);
    const abort = new AbortController();
    const call = b.client.callTool({ name: "slow", arguments: { ms: 20_000 } }, { signal: abort.signal });
    // The POST is on its way once the server has it.
    for (let i = 0; i < 200 && !fx.requests.some((r) => r.body.includes('"slow"')); i++)
      await new Promise((r) => setTimeout(r, 25));
    abort.abort();
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 200 && !fx.requests.find((r) => r.body.includes('"slow"'))?.closedEarly; i++)
      await new Promise((r) => setTimeout(r, 25));
    await b.close();
    expect(fx.requests.find((r) => r.body.includes('"slow"'))?.closedEarly).toBe(true);
    expect(fx.messages().some((m) => m["method"] === "notifications/cancelled")).toBe(false);
  });

  it("answers a call whose stream was cut before its answer with an error: a 2026-07-28 stream cannot resume", async () => {
    fx = await modernServer();
    const b = await bridgedModern(fx.url);
    const progress: unknown[] = [];
    const call = b.client.callTool(
      { name: "drop_me", arguments: {} },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    await expect(call).rejects.toThrow(/stream ended before it answered/);
    await b.close();
    expect(progress).toEqual([1]);
  });

  it("does not send a call whose body reads two ways (the headers would show one, the server may act on the other)", async () => {
    fx = await modernServer();
    const box = remoteSandbox();
    const raw = new RawClient(["--url", fx.url], box.env);
    // Observe refuses nothing; the bridge still cannot send this one consistently.
    raw.child.stdin!.write(
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query","arguments":{"region":"eu","region":"us","sql":"x"},"_meta":${JSON.stringify(META)}}}\n`,
    );
    const answer = await raw.next();
    await raw.close();
    box.cleanup();
    expect(answer["id"]).toBe(5);
    expect((answer["error"] as { message: string }).message).toMatch(
      /cannot be read one way only.*duplicate/,
    );
    expect(fx.calls()).toEqual([]);
  });
});
