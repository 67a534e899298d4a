// Where a network destination really is: one canonical host for every way of spelling it.
// The parsing is the WHATWG URL standard's (Node's global URL), which is what fetch, undici and
// browsers use: it reads IPv4 in every legacy spelling (`127.1`, `0x7f.1`, `2130706433`,
// `017700000001`), maps IDNA and full-width characters, decodes percent escapes in the host and
// compresses IPv6. What it leaves open is settled here: trailing dots, IPv4 inside IPv6, zone
// ids, hosts of non-special schemes (`ssh://`, which the standard keeps opaque), and scp-style
// `user@host:path`. See docs/decisions/0089-egress-destinations.md.

import { dotted, ipv4Number, ipv6Words } from "./address.js";

export interface CanonicalHost {
  /** The scheme in lower case, without `:`; absent when the text named none. */
  scheme?: string;
  /** Lower-case ASCII name (IDNA applied, no trailing dot), dotted IPv4, or `[v6]`. */
  host: string;
  /** The port written, else the scheme's usual one; absent when neither is known. */
  port?: number;
}

export type HostClass = "loopback" | "private" | "link-local" | "metadata" | "public";

/** Ports a scheme implies when the text writes none. */
const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
  ssh: 22,
  sftp: 22,
  scp: 22,
  "git+ssh": 22,
  git: 9418,
  smtp: 25,
  smtps: 465,
  imap: 143,
  imaps: 993,
  ldap: 389,
  ldaps: 636,
  redis: 6379,
  rediss: 6379,
  mysql: 3306,
  postgres: 5432,
  postgresql: 5432,
  mongodb: 27017,
  amqp: 5672,
  amqps: 5671,
  mqtt: 1883,
  gopher: 70,
  dict: 2628,
  telnet: 23,
};

/** Schemes whose hosts the URL standard parses as hosts (the others it keeps opaque). */
const SPECIAL = new Set(["http", "https", "ws", "wss", "ftp"]);

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/**
 * `git@github.com:owner/repo`: a host, a colon, then a path that is not a port number (and no
 * `@` before its first `/`: `user:pass@host` is a URL's userinfo). One letter is a drive (`C:`).
 */
const SCP_LIKE = /^(?:[^@/\s]+@)?(\[[^\]\s]*\]|[^:/\s[\]@]{2,}):(?!\d*(?:[/?#]|$))(?![^/]*@)/;

/** Parse `authority` as the host of an http URL; undefined when the standard rejects it. */
function parseHttp(rest: string): URL | undefined {
  try {
    return new URL(`http://${rest}`);
  } catch {
    return undefined;
  }
}

/** `[fe80::1%25eth0]` and `[fe80::1%eth0]`: the standard rejects zone ids; the address is what counts. */
const withoutZone = (text: string): string => text.replace(/(\[[0-9A-Fa-f:.]+)%[^\]]*\]/, "$1]");

/** An IPv4-mapped IPv6 address reaches the IPv4 host on a dual-stack socket: it is that host. */
function finishHost(hostname: string): string | undefined {
  const host = hostname.replace(/\.+$/, "");
  if (host === "") return undefined;
  const words = ipv6Words(host);
  if (words !== undefined && words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff)
    return dotted(words[6] ?? 0, words[7] ?? 0);
  return host;
}

function fromUrl(url: URL, scheme: string | undefined): CanonicalHost | undefined {
  let hostname = url.hostname;
  if (scheme !== undefined && !SPECIAL.has(scheme)) {
    // An opaque host keeps its case and percent escapes: read it again as a host.
    let raw = hostname;
    try {
      raw = decodeURIComponent(hostname);
    } catch {
      // a lone `%` stays as written, and the host parser below rejects it
    }
    const again = parseHttp(`${withoutZone(raw)}/`);
    if (again === undefined) return undefined;
    hostname = again.hostname;
  }
  const host = finishHost(hostname);
  if (host === undefined) return undefined;
  // Own keys only: a `constructor://` URL has no default port.
  const port =
    url.port !== ""
      ? Number(url.port)
      : scheme !== undefined && Object.hasOwn(DEFAULT_PORTS, scheme)
        ? DEFAULT_PORTS[scheme]
        : undefined;
  const out: CanonicalHost = { host };
  if (scheme !== undefined) out.scheme = scheme;
  if (port !== undefined) out.port = port;
  return out;
}

/**
 * The canonical destination of a URL (`https://x/…`), a host (`x`, `x:8080`, `[::1]:80`), a
 * scheme-less URL (`x/path`, `//x/path`), a mail address or `mailto:` URI, or an scp-style
 * `user@host:path`. Undefined when the text names no host the URL standard accepts (an empty
 * host, `file:///…`, a Windows path, a space inside the name, an IPv4 number above 2^32-1).
 */
export function canonicalHost(text: string): CanonicalHost | undefined {
  const t = withoutZone(text.trim());
  if (t === "") return undefined;
  const mailto = /^mailto:([^?#]*)/i.exec(t);
  if (mailto !== null) {
    const address = decodeSafely(mailto[1] ?? "").split(",")[0] ?? "";
    const at = address.lastIndexOf("@");
    const found = at < 0 ? undefined : canonicalHost(address.slice(at + 1));
    return found === undefined ? undefined : { scheme: "mailto", host: found.host };
  }
  const scheme = SCHEME.exec(t)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === "file") return undefined; // a local file, or a share the path rules judge
    let url: URL;
    try {
      url = new URL(t);
    } catch {
      return undefined;
    }
    return fromUrl(url, scheme);
  }
  if (/^[A-Za-z]:[\\/]/.test(t)) return undefined; // a Windows path: `C:` is its drive, not a host
  const scp = t.startsWith("//") ? null : SCP_LIKE.exec(t);
  if (scp !== null) {
    const url = parseHttp(`${scp[1] ?? ""}/`);
    return url === undefined ? undefined : fromUrl(url, undefined);
  }
  const url = parseHttp(t.startsWith("//") ? t.slice(2) : t);
  return url === undefined ? undefined : fromUrl(url, undefined);
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

type Range = readonly [base: string, bits: number];

function inRange(n: number, [base, bits]: Range): boolean {
  const b = ipv4Number(base) ?? 0;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(b / size);
}

/** Cloud instance metadata services: they hand out the machine's credentials to any local caller. */
const METADATA_V4 = [
  "169.254.169.254", // AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack
  "169.254.170.2", // AWS ECS task credentials
  "169.254.170.23", // AWS EKS Pod Identity
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud Classic
];
const METADATA_V6 = ["[fd00:ec2::254]", "[fd00:ec2::23]", "[fd20:ce::254]"]; // AWS IMDS, EKS, GCP
const METADATA_NAMES = [
  "metadata.google.internal",
  "metadata",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
];

const LOOPBACK_V4: Range[] = [
  ["127.0.0.0", 8],
  ["0.0.0.0", 8], // "this host": connecting to 0.0.0.0 reaches local services
];
const PRIVATE_V4: Range[] = [
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10], // carrier-grade NAT, also cloud VPC internals
  ["192.0.0.0", 24], // IETF protocol assignments
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

function classOfV4(n: number): HostClass {
  if (LOOPBACK_V4.some((r) => inRange(n, r))) return "loopback";
  if (inRange(n, ["169.254.0.0", 16])) return "link-local";
  if (PRIVATE_V4.some((r) => inRange(n, r))) return "private";
  return "public";
}

function classOfV6(words: readonly number[]): HostClass {
  const w = (i: number) => words[i] ?? 0;
  const zeroPrefix = (k: number) => words.slice(0, k).every((x) => x === 0);
  if (zeroPrefix(7) && (w(7) === 1 || w(7) === 0)) return "loopback"; // ::1, and :: (this host)
  // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
  if (w(0) === 0x64 && w(1) === 0xff9b && words.slice(2, 6).every((x) => x === 0)) {
    const v4 = dotted(w(6), w(7));
    return METADATA_V4.includes(v4) ? "metadata" : classOfV4(ipv4Number(v4) ?? 0);
  }
  if ((w(0) & 0xffc0) === 0xfe80) return "link-local";
  if ((w(0) & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((w(0) & 0xff00) === 0xff00) return "private"; // multicast
  if (w(0) === 0) return "private"; // ::/16 is reserved: IPv4-compatible and friends
  return "public";
}

/** Names that by definition stay inside a machine or a site. */
function classOfName(host: string): HostClass {
  if (METADATA_NAMES.includes(host)) return "metadata";
  if (host === "localhost" || host.endsWith(".localhost") || host === "localhost.localdomain")
    return "loopback";
  if (/\.(?:local|internal|home\.arpa|lan|localdomain)$/.test(host) || !host.includes(".")) return "private";
  return "public";
}

/**
 * What kind of place a host is. Accepts a canonical host or anything canonicalHost reads (it is
 * read again, so `0x7f.1` is loopback too). A single-label name (`intranet`) is private: it only
 * resolves through a local search domain. Text that names no host is public, the class no rule
 * trusts by default.
 */
export function hostClass(host: string): HostClass {
  const c = canonicalHost(host)?.host;
  if (c === undefined) return "public";
  if (METADATA_V4.includes(c) || METADATA_V6.includes(c)) return "metadata";
  const v4 = ipv4Number(c);
  if (v4 !== undefined) return classOfV4(v4);
  const v6 = ipv6Words(c);
  if (v6 !== undefined) return classOfV6(v6);
  return classOfName(c);
}
