/**
 * The URL of a remote MCP server (`effectgate --url`), checked once: what the bridge connects
 * to, what a lock entry is keyed by, and what the log may say about it.
 */

export interface ServerUrl {
  url: URL;
  /** The pin identity when no `--name` is given: the URL as WHATWG normalises it, no fragment. */
  identity: string;
  /** For logs and stderr: query values are often keys (`?api_key=`), so only their names show. */
  loggable: string;
  /** A loopback host: plain http is allowed, and discovery may stay on this machine. */
  loopback: boolean;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a URL's hostname (as WHATWG writes it) is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export type ServerUrlParse = { ok: true; server: ServerUrl } | { ok: false; error: string };

export function parseServerUrl(text: string): ServerUrlParse {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: `--url: expected an absolute http(s) URL, got ${JSON.stringify(text)}` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return {
      ok: false,
      error: `--url: expected an https URL, got the scheme ${JSON.stringify(url.protocol)}`,
    };
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === "http:" && !loopback)
    return {
      ok: false,
      error: `--url: expected https (plain http only for localhost: tokens and keys would cross the network in clear), got ${JSON.stringify(text)}`,
    };
  if (url.username !== "" || url.password !== "")
    return {
      ok: false,
      error:
        "--url: expected a URL without a user name or password (they would be logged and sent on); pass a key with --header instead",
    };
  url.hash = "";
  return { ok: true, server: { url, identity: url.href, loggable: loggableUrl(url), loopback } };
}

/** A URL with its query values replaced by `…`. */
export function loggableUrl(url: URL): string {
  const base = `${url.origin}${url.pathname}`;
  const names = [...url.searchParams.keys()];
  return names.length === 0 ? base : `${base}?${names.map((n) => `${encodeURIComponent(n)}=…`).join("&")}`;
}
