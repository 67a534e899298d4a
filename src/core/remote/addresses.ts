/**
 * What kind of network an IP address is on, for the bridge's SSRF checks on OAuth discovery
 * (a server's metadata may name any URL; it must not make effectgate fetch a cloud metadata
 * service or another machine's private network). Input is an address as a resolver or the
 * WHATWG URL parser writes it (dotted quad; IPv6 with or without brackets). Pure.
 */

export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  /** Cloud instance metadata (169.254.169.254, fd00:ec2::254): never fetched. */
  | "metadata"
  | "unspecified"
  /** Multicast, documentation, benchmarking and reserved ranges: not a server anyone runs. */
  | "reserved"
  | "not-an-address";

function v4Bytes(s: string): number[] | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function v4Kind([a = 0, b = 0, c = 0, d = 0]: number[]): AddressKind {
  if (a === 169 && b === 254 && c === 169 && d === 254) return "metadata";
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // carrier-grade NAT
  if (a === 169 && b === 254) return "link-local";
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return "reserved";
  if ((a === 198 && (b === 18 || b === 19)) || (a === 198 && b === 51 && c === 100)) return "reserved";
  if (a === 203 && b === 0 && c === 113) return "reserved";
  if (a >= 224) return "reserved"; // multicast, 240/4, broadcast
  return "public";
}

/** The eight 16-bit groups of an IPv6 address, or undefined. */
function v6Groups(s: string): number[] | undefined {
  let text = s;
  const pct = text.indexOf("%");
  if (pct >= 0) text = text.slice(0, pct); // a zone id names an interface, not another address
  // A trailing dotted quad (::ffff:10.0.0.1) is the last two groups.
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = v4Bytes(last);
    if (!v4) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const read = (h: string): number[] | undefined => {
    if (h === "") return [];
    const out: number[] = [];
    for (const g of h.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = read(halves[0] ?? "");
  const rest = halves.length === 2 ? read(halves[1] ?? "") : [];
  if (!head || !rest) return undefined;
  const given = head.length + rest.length;
  if (halves.length === 1) return given === 8 ? head : undefined;
  if (given > 7) return undefined;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest];
}

function v6Kind(g: number[]): AddressKind {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (): number[] => [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  if (g.every((x) => x === 0)) return "unspecified";
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 1)
    return "loopback";
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible) and 64:ff9b::a.b.c.d (NAT64) reach an IPv4 host.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0))
    return v4Kind(embedded());
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Kind(embedded());
  if (
    g0 === 0xfd00 &&
    g1 === 0x0ec2 &&
    g2 === 0 &&
    g3 === 0 &&
    g4 === 0 &&
    g5 === 0 &&
    g6 === 0 &&
    g7 === 0x254
  )
    return "metadata";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((g0 & 0xff00) === 0xff00) return "reserved"; // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return "reserved"; // documentation
  return "public";
}

export function addressKind(address: string): AddressKind {
  const a = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const v4 = v4Bytes(a);
  if (v4) return v4Kind(v4);
  if (!a.includes(":")) return "not-an-address";
  const g = v6Groups(a);
  return g ? v6Kind(g) : "not-an-address";
}

/** An address only this machine or its own network can reach. */
export function isNonPublic(kind: AddressKind): boolean {
  return kind !== "public";
}
