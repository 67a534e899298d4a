/**
 * The HTTP+SSE transport of 2024-11-05 (SDK 1.x SSEServerTransport): the last fallback under
 * `--transport auto`, the only transport under `--transport sse`, never tried under `http`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { afterEach, describe, expect, it } from "vitest";
import { sseServer, type RemoteFixture } from "../../helpers/remote-servers.js";
import { RawClient } from "../../e2e/harness.js";
import { bridged, remoteSandbox } from "./harness.js";

let fx: RemoteFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function talk(client: Client): Promise<unknown[]> {
  return [
    (await client.listTools()).tools.map((t) => t.name),
    await client.callTool({ name: "echo", arguments: { text: "over sse" } }),
    await client.callTool({ name: "read_issue", arguments: { number: 3 } }),
  ];
}

describe("effectgate --url, HTTP+SSE", () => {
  it("falls back to it under auto when the server refuses the Streamable HTTP POST, and answers as directly", async () => {
    fx = await sseServer();
    const direct = new Client({ name: "direct", version: "1" });
    await direct.connect(new SSEClientTransport(new URL(fx.url)));
    const expected = await talk(direct);
    await direct.close();
    const before = fx.requests.length;

    const b = await bridged(fx.url, { args: ["--level", "enforce"] });
    const got = await talk(b.client);
    const stderr = b.stderr();
    await b.close();
    expect(got).toEqual(expected);
    const mine = fx.requests.slice(before);
    expect(mine[0]).toMatchObject({ method: "POST", path: "/sse" });
    expect(mine[1]).toMatchObject({ method: "GET", path: "/sse" });
    expect(stderr).toMatch(/trying the HTTP\+SSE transport/);
  });

  it("goes straight to it with --transport sse", async () => {
    fx = await sseServer();
    const b = await bridged(fx.url, { args: ["--transport", "sse"] });
    const r = await b.client.callTool({ name: "echo", arguments: { text: "x" } });
    await b.close();
    expect(r.content).toEqual([{ type: "text", text: "x" }]);
    expect(fx.requests.filter((q) => q.path === "/sse" && q.method === "POST")).toHaveLength(0);
  });

  it("never falls back with --transport http: the client hears the server's refusal", async () => {
    fx = await sseServer();
    const box = remoteSandbox();
    const raw = new RawClient(["--transport", "http", "--url", fx.url], box.env);
    const answer = await raw.request({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await raw.close();
    box.cleanup();
    expect((answer["error"] as { message: string }).message).toMatch(/HTTP 405/);
    expect(fx.requests.filter((q) => q.method === "GET")).toHaveLength(0);
  });
});
