// Host patterns of a policy's egress lists. A pattern is read through canonicalHost, so it may be
// written in any spelling and holds for every spelling of its host (decision 0089).
import { ipv4Number, ipv6Words, samePrefix } from "./address.js";
import { canonicalHost, type HostClass, hostClass } from "./host.js";

export interface HostPattern {
  /** The text as the policy wrote it: what a decision cites. */
  text: string;
  /** Whether a canonical host (and its port, when known) matches. */
  test(host: string, port?: number): boolean;
}

export type CompiledHostPattern = { ok: true; pattern: HostPattern } | { ok: false; expected: string };

const HOST_PATTERN_FORMS =
  "a host (example.com, 10.0.0.1, [::1]) optionally with :port, *.example.com, an address range (169.254.0.0/16, fe80::/10), <loopback>, <private>, <link-local>, <metadata>, <public> or *";

const CLASSES: readonly HostClass[] = ["loopback", "private", "link-local", "metadata", "public"];

const fail = (why: string): CompiledHostPattern => ({
  ok: false,
  expected: `${HOST_PATTERN_FORMS} (${why})`,
});

function range(text: string, base: string, bitsText: string): CompiledHostPattern {
  const bits = Number(bitsText);
  const v4 = ipv4Number(base);
  if (v4 !== undefined) {
    if (!(bits >= 0 && bits <= 32)) return fail("an IPv4 prefix length is 0 to 32");
    const want = [v4];
    return {
      ok: true,
      pattern: {
        text,
        test: (host) => {
          const n = ipv4Number(host);
          return n !== undefined && samePrefix([n], want, bits, 32);
        },
      },
    };
  }
  const c = canonicalHost(base.startsWith("[") ? base : `[${base}]`)?.host;
  const v6 = c === undefined ? undefined : ipv6Words(c);
  if (v6 === undefined) return fail("the address before / is not an IP address");
  if (!(bits >= 0 && bits <= 128)) return fail("an IPv6 prefix length is 0 to 128");
  return {
    ok: true,
    pattern: {
      text,
      test: (host) => {
        const w = ipv6Words(host);
        return w !== undefined && samePrefix(w, v6, bits, 16);
      },
    },
  };
}

/** Compile one pattern of egress.deny_hosts, confirm_hosts or allow_hosts. */
export function compileHostPattern(text: string): CompiledHostPattern {
  const t = text.trim();
  if (t === "") return fail("got an empty pattern");
  if (t === "*") return { ok: true, pattern: { text, test: () => true } };
  const cls = /^<([a-z-]+)>$/.exec(t);
  if (cls !== null) {
    const wanted = cls[1] as HostClass;
    if (!CLASSES.includes(wanted)) return fail(`there is no class <${cls[1]}>`);
    return { ok: true, pattern: { text, test: (host) => hostClass(host) === wanted } };
  }
  const cidr = /^\[?([0-9A-Fa-f:.]+)\]?\/(\d{1,3})$/.exec(t);
  if (cidr !== null) return range(text, cidr[1] ?? "", cidr[2] ?? "");
  if (/[/?#@]/.test(t) || /^[a-z][a-z0-9+.-]*:\/\//i.test(t))
    return fail("write the host alone, without a scheme, path or user");
  const wild = t.startsWith("*.");
  const c = canonicalHost(wild ? `x.${t.slice(2)}` : t);
  if (c === undefined) return fail("it is not a host the URL standard accepts");
  if (wild && (c.host.startsWith("[") || ipv4Number(c.host) !== undefined))
    return fail("*. goes before a name, not an address");
  const host = wild ? c.host.slice(2) : c.host;
  const port = c.port;
  const portOk = (p: number | undefined) => port === undefined || p === port;
  return {
    ok: true,
    pattern: {
      text,
      test: wild ? (h, p) => h.endsWith(`.${host}`) && portOk(p) : (h, p) => h === host && portOk(p),
    },
  };
}
