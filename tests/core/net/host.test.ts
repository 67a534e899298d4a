import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalHost, hostClass } from "../../../src/core/net/host.js";

type Gen = fc.GeneratorValue;
const pick = <T>(g: Gen, items: readonly T[]): T => items[g(fc.nat, { max: items.length - 1 })] as T;
const chance = (g: Gen, pct: number) => g(fc.nat, { max: 99 }) < pct;

/** One number of an IPv4 address in decimal, octal (leading 0) or hex (0x), padded at random. */
function numberSpelling(g: Gen, n: number): string {
  const pad = "0".repeat(g(fc.nat, { max: 3 }));
  switch (pick(g, ["dec", "oct", "hex"])) {
    case "dec":
      return String(n);
    case "oct":
      return `0${pad}${n.toString(8)}`;
    default: {
      const digits = Array.from(n.toString(16))
        .map((c) => (chance(g, 50) ? c.toUpperCase() : c))
        .join("");
      return `${pick(g, ["0x", "0X"])}${pad}${digits}`;
    }
  }
}

/** An IPv4 address in 1 to 4 parts: the last part holds the remaining bytes as one number. */
function ipv4Spelling(g: Gen, bytes: readonly number[]): string {
  const k = g(fc.integer, { min: 1, max: 4 });
  const head = bytes.slice(0, k - 1);
  const last = bytes.slice(k - 1).reduce((n, b) => n * 256 + b, 0);
  const text = [...head.map((b) => numberSpelling(g, b)), numberSpelling(g, last)].join(".");
  return chance(g, 20) ? `${text}.` : text;
}

const FULL_WIDTH_DOTS = ["\u3002", "\uff0e", "\uff61"];

/** Characters IDNA maps back to ASCII: full-width digits and letters, ideographic dots. */
function wide(g: Gen, s: string): string {
  return Array.from(s)
    .map((c) => {
      if (!chance(g, 40)) return c;
      if (c === ".") return pick(g, FULL_WIDTH_DOTS);
      if (/[0-9a-zA-Z]/.test(c)) return String.fromCodePoint(c.codePointAt(0)! + 0xfee0);
      return c;
    })
    .join("");
}

function percent(g: Gen, s: string): string {
  return Array.from(s)
    .map((c) => (chance(g, 30) && c !== "[" && c !== "]" && c !== ":" ? encodeURIComponent(c) : c))
    .map((c) => (c.length === 1 && chance(g, 20) ? `%${c.charCodeAt(0).toString(16)}` : c))
    .join("");
}

/** The address inside IPv6 as `::ffff:a.b.c.d` or `::ffff:hhhh:hhhh`, zeros written out or not. */
function mappedSpelling(g: Gen, bytes: readonly number[]): string {
  const hex = (hi: number, lo: number) => {
    const w = ((hi << 8) | lo).toString(16).padStart(chance(g, 50) ? 4 : 1, "0");
    return chance(g, 50) ? w.toUpperCase() : w;
  };
  const tail = chance(g, 50) ? bytes.join(".") : `${hex(bytes[0]!, bytes[1]!)}:${hex(bytes[2]!, bytes[3]!)}`;
  const ffff = pick(g, ["ffff", "FFFF", "0ffff".slice(1), "00ffff".slice(2)]);
  const zeros = pick(g, ["::", "0::", "0:0:0:0:0:", "0000:0:0::", "0:0:0:0::"]);
  return `[${zeros}${ffff}:${tail}]`;
}

/** A host written inside a URL, bare, with a port, as `//host` or scp-style. */
function wrapped(g: Gen, host: string): string {
  const scheme = pick(g, ["http", "HTTPS", "ws", "ssh", "ftp", "gopher", "redis", "Http"]);
  const user = chance(g, 30) ? `${pick(g, ["u", "user:pw", "a%40b"])}@` : "";
  const port = chance(g, 40) ? `:${pick(g, ["80", "8080", "22", "443"])}` : "";
  const path = pick(g, ["", "/", "/latest/meta-data/", "/x?y=1#z", "?q"]);
  switch (pick(g, ["url", "bare", "slashes", "scp", "spaced"])) {
    case "url":
      return `${scheme}://${user}${host}${port}${path}`;
    case "bare":
      return `${user}${host}${port}${path === "?q" ? "" : path}`;
    case "slashes":
      return `//${user}${host}${port}${path}`;
    case "scp":
      return `git@${host}:owner/repo.git`;
    default:
      return `  ${scheme}://${host}${path}\n`;
  }
}

function spellings(bytes: readonly number[]) {
  return fc.gen().map((g) => {
    const v4 = ipv4Spelling(g, bytes);
    const host = pick(g, ["v4", "v4", "v4", "mapped"]) === "mapped" ? mappedSpelling(g, bytes) : v4;
    const dressed = host.startsWith("[") ? host : pick(g, ["plain", "wide", "percent"]);
    const text = dressed === "wide" ? wide(g, host) : dressed === "percent" ? percent(g, host) : host;
    return wrapped(g, text);
  });
}

describe("canonicalHost: every spelling of an IPv4 address lands on its dotted form", () => {
  it("127.0.0.1", () => {
    fc.assert(
      fc.property(spellings([127, 0, 0, 1]), (s) => {
        expect(canonicalHost(s)?.host, s).toBe("127.0.0.1");
        expect(hostClass(s), s).toBe("loopback");
      }),
      { numRuns: 3000 },
    );
  });

  it("169.254.169.254", () => {
    fc.assert(
      fc.property(spellings([169, 254, 169, 254]), (s) => {
        expect(canonicalHost(s)?.host, s).toBe("169.254.169.254");
        expect(hostClass(s), s).toBe("metadata");
      }),
      { numRuns: 3000 },
    );
  });

  it("the spellings the issue names", () => {
    for (const s of ["127.1", "0x7f.1", "2130706433", "017700000001", "[::ffff:127.0.0.1]", "127.0.0.1."])
      expect(canonicalHost(s)?.host, s).toBe("127.0.0.1");
    for (const s of ["169.254.43518", "0xa9.0xfe.0xa9.0xfe", "2852039166", "0251.0376.0251.0376"])
      expect(canonicalHost(s)?.host, s).toBe("169.254.169.254");
  });
});

describe("canonicalHost: IPv6", () => {
  it("every spelling of ::1 is [::1] and loopback", () => {
    for (const s of ["[::1]", "[0:0:0:0:0:0:0:1]", "[0000::0001]", "http://[::0:1]:8080/", "ssh://[::1]/"]) {
      expect(canonicalHost(s)?.host, s).toBe("[::1]");
      expect(hostClass(s), s).toBe("loopback");
    }
  });

  it("drops a zone id, which the URL standard refuses", () => {
    expect(canonicalHost("http://[fe80::1%25eth0]/x")?.host).toBe("[fe80::1]");
    expect(canonicalHost("[FE80::1%eth0]")?.host).toBe("[fe80::1]");
    expect(hostClass("[fe80::1%eth0]")).toBe("link-local");
  });

  it("AWS's IPv6 metadata address in any spelling", () => {
    for (const s of ["[fd00:ec2::254]", "[FD00:0EC2:0:0:0:0:0:0254]", "http://[fd00:ec2:0::254]/latest"])
      expect(hostClass(s), s).toBe("metadata");
  });
});

describe("canonicalHost: names", () => {
  it("lower-cases, maps IDNA and drops trailing dots", () => {
    expect(canonicalHost("https://Attacker.EXAMPLE./x")).toEqual({
      scheme: "https",
      host: "attacker.example",
      port: 443,
    });
    expect(canonicalHost("bücher.example")?.host).toBe("xn--bcher-kva.example");
    expect(canonicalHost("ssh://BÜCHER.example:2222/x")).toEqual({
      scheme: "ssh",
      host: "xn--bcher-kva.example",
      port: 2222,
    });
    expect(canonicalHost("ＬＯＣＡＬＨＯＳＴ")?.host).toBe("localhost");
    expect(canonicalHost("metadata.google.internal..")?.host).toBe("metadata.google.internal");
  });

  it("reads ports: written, else the scheme's, else none", () => {
    expect(canonicalHost("http://x.example:8080/")).toEqual({
      scheme: "http",
      host: "x.example",
      port: 8080,
    });
    expect(canonicalHost("http://x.example:80/")).toEqual({ scheme: "http", host: "x.example", port: 80 });
    expect(canonicalHost("x.example:3000")).toEqual({ host: "x.example", port: 3000 });
    expect(canonicalHost("x.example/path")).toEqual({ host: "x.example" });
    expect(canonicalHost("weird+scheme://x.example/")).toEqual({ scheme: "weird+scheme", host: "x.example" });
  });

  it("reads mail addresses, mailto: and scp-style hosts", () => {
    expect(canonicalHost("someone@Evil.Example")?.host).toBe("evil.example");
    expect(canonicalHost("mailto:a@b.example,c@d.example?subject=x")).toEqual({
      scheme: "mailto",
      host: "b.example",
    });
    expect(canonicalHost("git@github.com:owner/repo.git")?.host).toBe("github.com");
    expect(canonicalHost("user:pw@host.example")?.host).toBe("host.example");
    expect(canonicalHost("user:pw@host.example:22/x")).toEqual({ host: "host.example", port: 22 });
  });

  it("names no host for text that has none", () => {
    for (const s of [
      "",
      "   ",
      "file:///etc/passwd",
      "http://",
      "two words",
      "http://4294967296/",
      "mailto:nobody",
    ])
      expect(canonicalHost(s), JSON.stringify(s)).toBeUndefined();
    // A drive letter is not an scp host.
    expect(canonicalHost("C:\\Users\\x")?.host).not.toBe("c");
  });
});

describe("hostClass", () => {
  const cases: Array<[string, ReturnType<typeof hostClass>]> = [
    ["localhost", "loopback"],
    ["api.localhost", "loopback"],
    ["0.0.0.0", "loopback"],
    ["0", "loopback"],
    ["[::]", "loopback"],
    ["127.255.1.2", "loopback"],
    ["169.254.1.1", "link-local"],
    ["[fe80::abcd]", "link-local"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["metadata.google.internal", "metadata"],
    ["METADATA.google.internal.", "metadata"],
    ["metadata", "metadata"],
    ["[64:ff9b::a9fe:a9fe]", "metadata"],
    ["[64:ff9b::7f00:1]", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["[fd12::1]", "private"],
    ["printer.local", "private"],
    ["build.corp.internal", "private"],
    ["intranet", "private"],
    ["172.32.0.1", "public"],
    ["8.8.8.8", "public"],
    ["[2606:4700::1111]", "public"],
    ["example.com", "public"],
    ["github.com", "public"],
    ["not a host", "public"],
  ];
  for (const [host, expected] of cases)
    it(`${host} is ${expected}`, () => {
      expect(hostClass(host)).toBe(expected);
    });
});
