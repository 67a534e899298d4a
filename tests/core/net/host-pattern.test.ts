import { describe, expect, it } from "vitest";
import { compileHostPattern } from "../../../src/core/net/host-pattern.js";
import { canonicalHost } from "../../../src/core/net/host.js";
import { hostReadings } from "../../../src/core/net/host-readings.js";

function matches(pattern: string, text: string): boolean {
  const c = compileHostPattern(pattern);
  if (!c.ok) throw new Error(c.expected);
  const h = canonicalHost(text);
  return h !== undefined && c.pattern.test(h.host, h.port);
}

describe("host patterns", () => {
  it("a host in any spelling matches every spelling of it", () => {
    expect(matches("0xa9.0xfe.0xa9.0xfe", "http://169.254.169.254/")).toBe(true);
    expect(matches("169.254.169.254", "http://2852039166/")).toBe(true);
    expect(matches("Attacker.Example.", "https://attacker.example/x")).toBe(true);
    expect(matches("attacker.example", "https://sub.attacker.example/x")).toBe(false);
  });

  it("*.name matches names below it only; :port narrows to a port", () => {
    expect(matches("*.example.com", "https://a.b.example.com/")).toBe(true);
    expect(matches("*.example.com", "https://example.com/")).toBe(false);
    expect(matches("*.example.com", "https://badexample.com/")).toBe(false);
    expect(matches("localhost:3000", "http://localhost:3000/x")).toBe(true);
    expect(matches("localhost:3000", "http://localhost:3001/x")).toBe(false);
    expect(matches("localhost", "http://localhost:3001/x")).toBe(true);
  });

  it("address ranges in IPv4 and IPv6, classes, and *", () => {
    expect(matches("10.0.0.0/8", "http://10.200.3.4/")).toBe(true);
    expect(matches("10.0.0.0/8", "http://11.0.0.1/")).toBe(false);
    expect(matches("fe80::/10", "http://[fe80::1]/")).toBe(true);
    expect(matches("[fd00::]/8", "http://[fd12::1]/")).toBe(true);
    expect(matches("fe80::/10", "http://[fec0::1]/")).toBe(false);
    expect(matches("<metadata>", "http://[::ffff:169.254.169.254]/")).toBe(true);
    expect(matches("<loopback>", "http://0x7f.1/")).toBe(true);
    expect(matches("<private>", "http://192.168.1.1/")).toBe(true);
    expect(matches("<public>", "https://example.com/")).toBe(true);
    expect(matches("*", "https://anything.example/")).toBe(true);
  });

  it("refuses what is not a host pattern, saying what is", () => {
    for (const bad of [
      "",
      "https://x.example/",
      "x.example/path",
      "<nope>",
      "10.0.0.0/33",
      "*.10.0.0.1",
      "a b",
    ]) {
      const c = compileHostPattern(bad);
      expect(c.ok, bad).toBe(false);
      if (!c.ok) expect(c.expected).toMatch(/^a host \(example\.com/);
    }
  });
});

describe("host readings", () => {
  it("reads a URL as the standard does and as RFC 3986 parsers do", () => {
    expect(hostReadings("http://good.example\\@169.254.169.254/").map((h) => h.host)).toEqual([
      "good.example",
      "169.254.169.254",
    ]);
    expect(hostReadings("http://169.254.169.254\\@good.example/").map((h) => h.host)).toEqual([
      "169.254.169.254",
      "good.example",
    ]);
    expect(hostReadings("https://user:pw@x.example/").map((h) => h.host)).toEqual(["x.example"]);
  });
});
