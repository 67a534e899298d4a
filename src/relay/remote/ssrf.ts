/**
 * The SSRF guard for every URL the bridge fetches on a server's word rather than the user's:
 * OAuth protected-resource and authorization-server metadata, registration, token and any other
 * endpoint they name. A server could otherwise make effectgate fetch a cloud metadata service
 * or a machine on the user's private network.
 *
 * The rule: https only (http only on this machine, for a server that is itself on this
 * machine); never a cloud metadata address; a loopback, private or link-local address only when
 * the configured server itself resolves to one (the user chose a server on their own network).
 * The check runs when the connection is made, on every address the name resolves to, so a name
 * that resolves differently the second time (DNS rebinding) is caught too. Redirects to another
 * origin are not followed (the SDK's default redirect policy); a same-origin redirect is fetched
 * through this guard again.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { hostClass } from "../../core/net/host.js";
import { isLoopbackHost } from "../../core/remote/server-url.js";
import type { FetchLike } from "./wire-fetch.js";

export interface SsrfPolicy {
  /** The configured server resolves to a non-public address: discovery may stay there too. */
  allowNonPublic: boolean;
}

class SsrfRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SsrfRefused";
  }
}

/** Why an address (core/net/host.ts classifies it) may not be fetched, or undefined when it may. */
export function addressRefusal(address: string, policy: SsrfPolicy): string | undefined {
  const kind = hostClass(address.includes(":") && !address.startsWith("[") ? `[${address}]` : address);
  if (kind === "metadata") return `${address} is a cloud metadata address`;
  if (kind === "public" || policy.allowNonPublic) return undefined;
  return `${address} is a ${kind} address, and the server is on a public one`;
}

const bare = (hostname: string): string => hostname.replace(/^\[|\]$/g, "");

/** Whether the server's own host is on this machine or a private network. */
export async function serverIsNonPublic(url: URL): Promise<boolean> {
  if (isLoopbackHost(url.hostname) || hostClass(url.hostname) !== "public") return true;
  if (isIP(bare(url.hostname))) return false;
  try {
    const all = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(url.hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
    );
    return all.some((a) => addressRefusal(a.address, { allowNonPublic: false }) !== undefined);
  } catch {
    return false; // unresolvable: treated as public, the stricter reading
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function checkedLookup(policy: SsrfPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const why = addressRefusal(a.address, policy);
        if (why)
          return callback(
            Object.assign(new SsrfRefused(`refused to connect to ${hostname}: ${why} (SSRF guard)`), {
              code: "ESSRF",
            }),
            [],
          );
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** A fetch for URLs a server named: checked scheme, checked address at connect time. */
export function guardedFetch(policy: SsrfPolicy): FetchLike {
  const agent = new Agent({ connect: { lookup: checkedLookup(policy) } });
  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const loopback = isLoopbackHost(url.hostname);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback && policy.allowNonPublic))
      throw new SsrfRefused(
        `refused to fetch ${url.origin}${url.pathname}: expected an https URL (SSRF guard), got ${url.protocol.replace(/:$/, "")}`,
      );
    const host = bare(url.hostname);
    // An address written in the URL is connected to without a lookup: judge it here.
    if (isIP(host)) {
      const why = addressRefusal(host, policy);
      if (why) throw new SsrfRefused(`refused to fetch ${url.origin}${url.pathname}: ${why} (SSRF guard)`);
    }
    const { signal, ...rest } = init ?? {};
    const response = await undiciFetch(url, {
      ...(rest as Record<string, unknown>),
      ...(signal ? { signal } : {}),
      dispatcher: agent,
    } as Parameters<typeof undiciFetch>[1]);
    return response as unknown as Response;
  };
}
