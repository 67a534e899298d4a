/**
 * The fetch the SDK's transports use. Two jobs:
 *
 * - The body the server receives is the line the gate judged, byte for byte. The SDK's
 *   transports take a message object and POST `JSON.stringify` of it; the bridge registers the
 *   client's own bytes under that text just before handing the object over, and this fetch
 *   puts them back (docs/decisions/0098-remote-bridge-reserialises.md).
 * - Anything fetched from another origin than the server's (OAuth discovery, registration,
 *   tokens) goes through the SSRF guard (ssrf.ts).
 */

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The client's bytes of the messages being sent, by the text the SDK will make of them. */
export class RawBodies {
  private readonly waiting = new Map<string, Buffer[]>();

  /** Register `raw` as the body for the message whose JSON.stringify is `text`; returns a drop. */
  put(text: string, raw: Buffer): () => void {
    const list = this.waiting.get(text) ?? [];
    list.push(raw);
    this.waiting.set(text, list);
    return () => {
      const now = this.waiting.get(text);
      if (!now) return;
      const at = now.indexOf(raw);
      if (at >= 0) now.splice(at, 1);
      if (now.length === 0) this.waiting.delete(text);
    };
  }

  take(text: string): Buffer | undefined {
    const list = this.waiting.get(text);
    if (!list) return undefined;
    const raw = list.shift();
    if (list.length === 0) this.waiting.delete(text);
    return raw;
  }

  get size(): number {
    return this.waiting.size;
  }
}

function urlOf(input: string | URL | Request): URL {
  return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
}

export function bridgeFetch(o: {
  raw: RawBodies;
  server: URL;
  guarded: FetchLike;
  base?: FetchLike;
}): FetchLike {
  const base = o.base ?? ((input, init) => fetch(input, init));
  return (input, init) => {
    const url = urlOf(input);
    if (url.origin !== o.server.origin) return o.guarded(input, init);
    if (init?.method === "POST" && typeof init.body === "string") {
      const raw = o.raw.take(init.body);
      if (raw) return base(input, { ...init, body: raw });
    }
    return base(input, init);
  };
}
