/**
 * The SSRF guard on what a server names for OAuth discovery: judged by whether a request left
 * effectgate at all (a counting local server), never by the message alone.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { addressRefusal, guardedFetch, serverIsNonPublic } from "../../../src/relay/remote/ssrf.js";

let server: Server | undefined;
let hits = 0;
afterEach(async () => {
  hits = 0;
  if (server) await new Promise<void>((r) => server!.close(() => r()));
  server = undefined;
});

async function local(): Promise<number> {
  server = createServer((_req, res) => {
    hits++;
    res.end("{}");
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

/** The reason a guarded fetch failed, wherever fetch put it (its cause). */
async function refusal(p: Promise<Response>): Promise<string> {
  try {
    await p;
    return "fetched";
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ""}`;
  }
}

describe("SSRF guard", () => {
  it("never allows a cloud metadata address; private ones only for a server that is private itself", () => {
    for (const a of ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]) {
      expect(addressRefusal(a, { allowNonPublic: true }), a).toMatch(/metadata/);
      expect(addressRefusal(a, { allowNonPublic: false }), a).toMatch(/metadata/);
    }
    for (const a of ["127.0.0.1", "10.0.0.8", "192.168.1.1", "fe80::1", "::1", "fd12::1"]) {
      expect(addressRefusal(a, { allowNonPublic: false }), a).toMatch(
        /address, and the server is on a public one/,
      );
      expect(addressRefusal(a, { allowNonPublic: true }), a).toBeUndefined();
    }
    expect(addressRefusal("93.184.215.14", { allowNonPublic: false })).toBeUndefined();
  });

  it("knows whether the server itself is on this machine or a private network", async () => {
    expect(await serverIsNonPublic(new URL("http://127.0.0.1:3000/mcp"))).toBe(true);
    expect(await serverIsNonPublic(new URL("http://localhost:3000/mcp"))).toBe(true);
    expect(await serverIsNonPublic(new URL("https://10.1.2.3/mcp"))).toBe(true);
    expect(await serverIsNonPublic(new URL("https://93.184.215.14/mcp"))).toBe(false);
  });

  it("for a public server, refuses plain http and a name that resolves to this machine, before connecting", async () => {
    const port = await local();
    const guarded = guardedFetch({ allowNonPublic: false });
    expect(await refusal(guarded(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`))).toMatch(
      /expected an https URL \(SSRF guard\)/,
    );
    expect(await refusal(guarded(`https://127.0.0.1:${port}/x`))).toMatch(/loopback address.*SSRF guard/);
    // A name is judged by what it resolves to when the connection is made (DNS rebinding too).
    expect(await refusal(guarded(`https://localhost:${port}/x`))).toMatch(
      /refused to connect to localhost.*SSRF guard/,
    );
    expect(hits).toBe(0);
  });

  it("refuses the metadata service even for a server on this machine, and fetches what is allowed", async () => {
    const port = await local();
    const guarded = guardedFetch({ allowNonPublic: true });
    expect(await refusal(guarded("https://169.254.169.254/latest/meta-data/"))).toMatch(/metadata address/);
    const ok = await guarded(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource`);
    expect(ok.status).toBe(200);
    expect(hits).toBe(1);
  });
});
