// Edges of --url that the main tests leave open (found by Stryker): the exact refusals, either
// half of the credentials, and the bounds of the 127/8 loopback pattern.
import { describe, expect, it } from "vitest";
import { isLoopbackHost, parseServerUrl } from "../../../src/core/remote/server-url.js";

describe("--url refusals", () => {
  it("says what it expected", () => {
    expect(parseServerUrl("not a url")).toEqual({
      ok: false,
      error: '--url: expected an absolute http(s) URL, got "not a url"',
    });
    expect(parseServerUrl("ftp://example.com/")).toEqual({
      ok: false,
      error: '--url: expected an https URL, got the scheme "ftp:"',
    });
  });

  it.each(["https://user@example.com/mcp", "https://:secret@example.com/mcp"])(
    "refuses a user name or a password alone: %j",
    (text) => {
      const r = parseServerUrl(text);
      expect(!r.ok && r.error).toMatch(/without a user name or password/);
    },
  );
});

describe("loopback hosts", () => {
  it.each(["127.10.0.1", "127.0.10.1", "127.0.0.10", "127.255.255.254"])("knows %s", (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });

  it.each(["127.0.0.1.example.com", "10.127.0.0.1", "x127.0.0.1"])("does not take %s for one", (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });

  it("allows plain http to 127.0.0.1 but not to a name that starts like it", () => {
    expect(parseServerUrl("http://127.0.0.1/mcp").ok).toBe(true);
    expect(parseServerUrl("http://127.0.0.1.example.com/mcp").ok).toBe(false);
  });
});
