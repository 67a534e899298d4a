// A URL's host as each kind of client may read it. The WHATWG standard (fetch, browsers) treats
// `\` as `/` in http URLs; RFC 3986 parsers (Python's urllib, many HTTP libraries) read the
// authority up to the first `/`, `?` or `#` and take the host after its last `@`. So
// `http://good.example\@169.254.169.254/` goes to good.example in one and to the metadata
// address in the other. Both readings are judged; the strictest wins (decision 0090).
import { canonicalHost, type CanonicalHost } from "./host.js";

const AUTHORITY = /^\s*([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i;

/** The distinct canonical destinations `text` may name: the standard's reading first. */
export function hostReadings(text: string): CanonicalHost[] {
  const out: CanonicalHost[] = [];
  const add = (c: CanonicalHost | undefined) => {
    if (c !== undefined && !out.some((o) => o.host === c.host && o.port === c.port)) out.push(c);
  };
  add(canonicalHost(text));
  const m = AUTHORITY.exec(text);
  if (m !== null) {
    const authority = m[2] ?? "";
    const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
    if (hostPort !== "") add(canonicalHost(`${m[1] ?? ""}://${hostPort}/`));
  }
  return out;
}
