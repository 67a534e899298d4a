import { describe, expect, it } from "vitest";
import { isLoopbackHost, loggableUrl, parseServerUrl } from "../../../src/core/remote/server-url.js";

describe("--url", () => {
  it("normalises the identity and drops the fragment", () => {
    const r = parseServerUrl("HTTPS://Example.COM:443/mcp?b=2#frag");
    expect(r.ok && r.server.identity).toBe("https://example.com/mcp?b=2");
    expect(r.ok && r.server.loopback).toBe(false);
  });

  it("logs query names, never their values", () => {
    const r = parseServerUrl("https://example.com/mcp?api_key=sk-123&region=eu");
    expect(r.ok && r.server.loggable).toBe("https://example.com/mcp?api_key=…&region=…");
    expect(loggableUrl(new URL("https://a.example/x"))).toBe("https://a.example/x");
  });

  it("allows plain http only on this machine", () => {
    expect(parseServerUrl("http://127.0.0.1:3000/mcp").ok).toBe(true);
    expect(parseServerUrl("http://localhost:3000/mcp").ok).toBe(true);
    expect(parseServerUrl("http://[::1]:3000/mcp").ok).toBe(true);
    const r = parseServerUrl("http://example.com/mcp");
    expect(!r.ok && r.error).toMatch(/expected https/);
  });

  it.each([["ftp://example.com/"], ["not a url"], ["file:///etc/passwd"]])("refuses %j", (text) => {
    expect(parseServerUrl(text).ok).toBe(false);
  });

  it("refuses credentials in the URL (they would be logged and sent on)", () => {
    const r = parseServerUrl("https://user:secret@example.com/mcp");
    expect(!r.ok && r.error).toMatch(/without a user name or password/);
    expect(!r.ok && r.error).not.toContain("secret");
  });

  it("knows loopback names", () => {
    for (const h of ["localhost", "a.localhost", "127.0.0.1", "127.9.9.9", "[::1]"])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ["example.com", "10.0.0.1", "localhost.example.com", "[::2]"])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});
