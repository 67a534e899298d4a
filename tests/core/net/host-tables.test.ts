// Every row of the tables behind canonicalHost and hostClass, one by one: a row dropped or
// misspelled must fail here, since the property tests only reach the addresses they spell.
import { describe, expect, it } from "vitest";
import { ipv4Number, ipv6Words, samePrefix } from "../../../src/core/net/address.js";
import { describeDestination } from "../../../src/core/net/destination-text.js";
import { compileHostPattern } from "../../../src/core/net/host-pattern.js";
import { hostReadings } from "../../../src/core/net/host-readings.js";
import { canonicalHost, hostClass } from "../../../src/core/net/host.js";

describe("canonicalHost: the port each scheme implies", () => {
  const ports: Array<[string, number]> = [
    ["http", 80],
    ["https", 443],
    ["ws", 80],
    ["wss", 443],
    ["ftp", 21],
    ["ssh", 22],
    ["sftp", 22],
    ["scp", 22],
    ["git+ssh", 22],
    ["git", 9418],
    ["smtp", 25],
    ["smtps", 465],
    ["imap", 143],
    ["imaps", 993],
    ["ldap", 389],
    ["ldaps", 636],
    ["redis", 6379],
    ["rediss", 6379],
    ["mysql", 3306],
    ["postgres", 5432],
    ["postgresql", 5432],
    ["mongodb", 27017],
    ["amqp", 5672],
    ["amqps", 5671],
    ["mqtt", 1883],
    ["gopher", 70],
    ["dict", 2628],
    ["telnet", 23],
  ];
  for (const [scheme, port] of ports)
    it(`${scheme}:// is port ${port}`, () => {
      expect(canonicalHost(`${scheme}://X.Example/a`)).toEqual({ scheme, host: "x.example", port });
    });

  it("an opaque host is read again as a host: case, escapes, zone ids, mapped IPv4", () => {
    expect(canonicalHost("ssh://Box%2EExample/")?.host).toBe("box.example");
    expect(canonicalHost("ssh://[::ffff:a9fe:a9fe]/")?.host).toBe("169.254.169.254");
    expect(canonicalHost("redis://0x7f.1:7000/")).toEqual({ scheme: "redis", host: "127.0.0.1", port: 7000 });
    // A lone `%` is not an escape: the host parser refuses it, so no host is named.
    expect(canonicalHost("ssh://a%zz/")).toBeUndefined();
  });

  it("scp-style text: a host, then a path that is not a port", () => {
    expect(canonicalHost("deploy@[::1]:srv/app")?.host).toBe("[::1]");
    expect(canonicalHost("build.example:src/x")?.host).toBe("build.example");
    expect(canonicalHost("//h.example:22/x")).toEqual({ host: "h.example", port: 22 });
    expect(canonicalHost("D:/work/x")).toBeUndefined();
    expect(canonicalHost("git@host.example:repos//")?.host).toBe("host.example");
    expect(canonicalHost("[zz]:srv/x")).toBeUndefined();
    expect(canonicalHost("x.example//")?.host).toBe("x.example");
    // A scheme later in the text is not the text's scheme.
    expect(canonicalHost("a.example/?next=http://b.example/")).toEqual({ host: "a.example" });
  });

  it("an opaque host is decoded once more than an http host", () => {
    expect(canonicalHost("ssh://a%252Eb.example/")?.host).toBe("a.b.example");
  });

  it("mailto: takes the host after the address's last @, decoded", () => {
    expect(canonicalHost("mailto:@b.example")).toEqual({ scheme: "mailto", host: "b.example" });
    expect(canonicalHost("mailto:a%3F@c.example")).toEqual({ scheme: "mailto", host: "c.example" });
    expect(canonicalHost("mailto:a%2Fb@c.example")).toEqual({ scheme: "mailto", host: "c.example" });
    // A malformed escape is kept as written, not a reason to lose the host.
    expect(canonicalHost("mailto:%zz@b.example")).toEqual({ scheme: "mailto", host: "b.example" });
  });
});

describe("hostClass: every metadata address and name", () => {
  for (const host of [
    "169.254.169.254",
    "169.254.170.2",
    "169.254.170.23",
    "100.100.100.200",
    "192.0.0.192",
    "[fd00:ec2::254]",
    "[fd00:ec2::23]",
    "[fd20:ce::254]",
    "metadata.google.internal",
    "metadata",
    "metadata.goog",
    "instance-data",
    "instance-data.ec2.internal",
    "metadata.tencentyun.com",
  ])
    it(`${host} is metadata`, () => {
      expect(hostClass(host)).toBe("metadata");
    });
});

describe("hostClass: the first and last address of each range, and the one past it", () => {
  const cases: Array<[string, ReturnType<typeof hostClass>]> = [
    ["127.0.0.0", "loopback"],
    ["127.255.255.255", "loopback"],
    ["128.0.0.0", "public"],
    ["0.255.255.255", "loopback"],
    ["1.0.0.0", "public"],
    ["169.254.0.0", "link-local"],
    ["169.254.255.255", "link-local"],
    ["169.255.0.0", "public"],
    ["169.253.255.255", "public"],
    ["10.0.0.0", "private"],
    ["10.255.255.255", "private"],
    ["11.0.0.0", "public"],
    ["9.255.255.255", "public"],
    ["172.16.0.0", "private"],
    ["172.15.255.255", "public"],
    ["192.168.0.0", "private"],
    ["192.168.255.255", "private"],
    ["192.169.0.0", "public"],
    ["100.64.0.0", "private"],
    ["100.127.255.255", "private"],
    ["100.128.0.0", "public"],
    ["100.63.255.255", "public"],
    ["192.0.0.1", "private"],
    ["192.0.0.255", "private"],
    ["192.0.1.0", "public"],
    ["198.18.0.0", "private"],
    ["198.19.255.255", "private"],
    ["198.20.0.0", "public"],
    ["198.17.255.255", "public"],
    ["224.0.0.1", "private"],
    ["239.255.255.255", "private"],
    ["223.255.255.255", "public"],
    ["240.0.0.0", "private"],
    ["255.255.255.255", "private"],
    // IPv6
    ["[::1]", "loopback"],
    ["[::2]", "private"],
    ["[1::1]", "public"],
    ["[::1:0:0:0:1]", "private"],
    ["[64:ff9b::808:808]", "public"],
    ["[64:ff9b::a00:1]", "private"],
    ["[64:ff9b::a9fe:101]", "link-local"],
    ["[64:ff9b:1::a9fe:a9fe]", "public"],
    ["[65:ff9b::a9fe:a9fe]", "public"],
    ["[64:ff9a::7f00:1]", "public"],
    ["[64:ff9b::1:0:7f00:1]", "public"],
    ["[fe80::1]", "link-local"],
    ["[febf:ffff::1]", "link-local"],
    ["[fec0::1]", "public"],
    ["[fe7f::1]", "public"],
    ["[fc00::1]", "private"],
    ["[fdff::1]", "private"],
    ["[fe00::1]", "public"],
    ["[fb00::1]", "public"],
    ["[ff02::1]", "private"],
    ["[feff::1]", "public"],
    ["[2001:db8::1]", "public"],
    // Names
    ["localhost.localdomain", "loopback"],
    ["a.b.localhost", "loopback"],
    ["localhostx.example", "public"],
    ["x.localhost.example", "public"],
    ["nas.home.arpa", "private"],
    ["home.arpa.example", "public"],
    ["box.lan", "private"],
    ["box.lan.example", "public"],
    ["pc.localdomain", "private"],
    ["printer.local", "private"],
    ["printer.locals", "public"],
    ["svc.internal", "private"],
    ["svc.internals", "public"],
    ["sub.metadata.goog", "public"],
  ];
  for (const [host, expected] of cases)
    it(`${host} is ${expected}`, () => {
      expect(hostClass(host)).toBe(expected);
    });
});

describe("address readings", () => {
  it("ipv4Number reads dotted quads only, each part at most 255", () => {
    expect(ipv4Number("1.2.3.4")).toBe(0x01020304);
    expect(ipv4Number("255.255.255.255")).toBe(2 ** 32 - 1);
    expect(ipv4Number("256.0.0.1")).toBeUndefined();
    expect(ipv4Number("1.2.3.256")).toBeUndefined();
    expect(ipv4Number("1.2.3")).toBeUndefined();
    expect(ipv4Number("x1.2.3.4")).toBeUndefined();
    expect(ipv4Number("1.2.3.4x")).toBeUndefined();
    expect(ipv4Number("1.2.3.1000")).toBeUndefined();
  });

  it("ipv6Words reads bracketed, compressed or full IPv6 only", () => {
    expect(ipv6Words("[::]")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Words("[1:2:3:4:5:6:7:8]")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Words("[1::8]")).toEqual([1, 0, 0, 0, 0, 0, 0, 8]);
    expect(ipv6Words("[::ffff]")).toEqual([0, 0, 0, 0, 0, 0, 0, 0xffff]);
    expect(ipv6Words("[ABCD::]")).toEqual([0xabcd, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Words("::1")).toBeUndefined();
    expect(ipv6Words("[::1")).toBeUndefined();
    expect(ipv6Words("::1]")).toBeUndefined();
    expect(ipv6Words("1::1]")).toBeUndefined();
    expect(ipv6Words("[1::2::3]")).toBeUndefined();
    expect(ipv6Words("[1:2:3:4:5:6:7]")).toBeUndefined();
    expect(ipv6Words("[1:2:3:4:5:6:7:8:9]")).toBeUndefined();
    expect(ipv6Words("[1:2:3:4::5:6:7:8:9]")).toBeUndefined();
    // A `::` that stands for no words is read (the URL standard never writes one).
    expect(ipv6Words("[1:2:3:4::5:6:7:8]")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Words("[g::1]")).toBeUndefined();
    expect(ipv6Words("[12345::1]")).toBeUndefined();
    expect(ipv6Words("[x1::1]")).toBeUndefined();
    expect(ipv6Words("[1x::1]")).toBeUndefined();
  });

  it("samePrefix compares the first bits only, across word boundaries", () => {
    expect(samePrefix([0xfe80, 1], [0xfebf, 2], 10, 16)).toBe(true);
    expect(samePrefix([0xfe80, 1], [0xfec0, 1], 10, 16)).toBe(false);
    expect(samePrefix([1, 0x8000], [1, 0xffff], 17, 16)).toBe(true);
    expect(samePrefix([1, 0x8000], [1, 0x7fff], 17, 16)).toBe(false);
    expect(samePrefix([1, 2], [3, 4], 0, 16)).toBe(true);
    expect(samePrefix([5, 7], [5, 8], 16, 16)).toBe(true);
    expect(samePrefix([5, 7], [5, 8], 32, 16)).toBe(false);
  });
});

describe("describeDestination", () => {
  it("names the host, its port unless 80 or 443, the recipient and the service", () => {
    expect(describeDestination({ host: "x.example" })).toBe("x.example");
    expect(describeDestination({ host: "x.example", port: 80 })).toBe("x.example");
    expect(describeDestination({ host: "x.example", port: 443 })).toBe("x.example");
    expect(describeDestination({ host: "x.example", port: 8443 })).toBe("x.example:8443");
    expect(describeDestination({ service: "its server" })).toBe("the tool's own server");
    expect(describeDestination({ service: "slack" })).toBe("slack");
    expect(describeDestination({})).toBe("an unnamed destination");
    expect(describeDestination({ recipient: "+1 555 0100" })).toBe("+1 555 0100");
    expect(describeDestination({ recipient: "owner/repo", host: "github.com", port: 22 })).toBe(
      "owner/repo on github.com:22",
    );
    expect(describeDestination({ recipient: "#ops", service: "its server" })).toBe(
      "#ops on the tool's own server",
    );
  });
});

describe("host patterns: each way a pattern is refused, and prefix-length edges", () => {
  const refused = (text: string): string => {
    const c = compileHostPattern(text);
    return c.ok ? "accepted" : c.expected.replace(/^.*\(/, "").replace(/\)$/, "");
  };
  const test = (pattern: string, host: string, port?: number): boolean => {
    const c = compileHostPattern(pattern);
    if (!c.ok) throw new Error(c.expected);
    return c.pattern.test(host, port);
  };

  it("names what is wrong", () => {
    expect(refused("   ")).toBe("got an empty pattern");
    expect(refused("<nope>")).toBe("there is no class <nope>");
    expect(refused("a<loopback>")).toBe("it is not a host the URL standard accepts");
    expect(refused("<loopback>x")).toBe("it is not a host the URL standard accepts");
    expect(refused("10.0.0.0/33")).toBe("an IPv4 prefix length is 0 to 32");
    expect(refused("fe80::/129")).toBe("an IPv6 prefix length is 0 to 128");
    expect(refused("1.2.3/8")).toBe("the address before / is not an IP address");
    expect(refused("g10.0.0.0/8")).toBe("write the host alone, without a scheme, path or user");
    expect(refused("10.0.0.0/8x")).toBe("write the host alone, without a scheme, path or user");
    expect(refused("https://x.example")).toBe("write the host alone, without a scheme, path or user");
    expect(refused("a b")).toBe("it is not a host the URL standard accepts");
  });

  it("trims the pattern and keeps the text as written", () => {
    const c = compileHostPattern(" * ");
    expect(c.ok && c.pattern.text).toBe(" * ");
    expect(test(" * ", "anything.example")).toBe(true);
    expect(test(" <loopback> ", "127.0.0.1")).toBe(true);
  });

  it("takes prefix lengths 0 and the full width, and a range holds only addresses of its family", () => {
    expect(test("10.0.0.0/0", "203.0.113.9")).toBe(true);
    expect(test("10.0.0.7/32", "10.0.0.7")).toBe(true);
    expect(test("10.0.0.7/32", "10.0.0.6")).toBe(false);
    expect(test("0.0.0.0/8", "example.com")).toBe(false);
    expect(test("0.0.0.0/8", "[::]")).toBe(false);
    expect(test("::/0", "[2001:db8::1]")).toBe(true);
    expect(test("::/0", "10.0.0.1")).toBe(false);
    expect(test("::/128", "[::]")).toBe(true);
    expect(test("::/128", "[::1]")).toBe(false);
    expect(test("fe80::/10", "example.com")).toBe(false);
  });
});

describe("hostReadings: each reading once, and only of text that names a host", () => {
  it("the two readings differ by port: both are kept", () => {
    expect(hostReadings("http://x.example:8080\\@x.example/")).toEqual([
      { scheme: "http", host: "x.example", port: 8080 },
      { scheme: "http", host: "x.example", port: 80 },
    ]);
  });

  it("no scheme, no host, or a scheme after other text", () => {
    expect(hostReadings("x.example")).toEqual([{ host: "x.example" }]);
    expect(hostReadings("two words")).toEqual([]);
    expect(hostReadings("see http://good.example\\@169.254.169.254/")).toEqual([]);
  });
});
