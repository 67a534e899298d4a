/**
 * The loopback page the authorization server sends the browser back to (RFC 8252 §7.3): an HTTP
 * listener on 127.0.0.1 only, one path, answering only the authorisation effectgate started
 * (its `state`). The port is the one the stored registration names when it is free, so a
 * registered client keeps working across runs; otherwise any free port (and a new registration).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PATH = "/oauth/callback";

export interface Expectation {
  state: string;
  resolve: (params: URLSearchParams) => void;
  reject: (err: Error) => void;
}

const page = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text}</p>`;

export class CallbackServer {
  private server: Server | undefined;
  private port: number | undefined;
  private expected: Expectation | undefined;

  /**
   * Listens (once); prefers `port`, or insists on it with `exact` (a pre-registered client's
   * redirect URI names it: another port would be refused by the authorization server anyway).
   * Returns the redirect URL.
   */
  async listen(port?: number, o: { exact?: boolean } = {}): Promise<string> {
    if (this.server) return this.url();
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (req.method !== "GET" || url.pathname !== PATH) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const want = this.expected;
      // A request for another authorisation (or none) is not ours to act on: it may be a page
      // trying to log the user in as someone else (login CSRF).
      if (!want || url.searchParams.get("state") !== want.state) {
        res.writeHead(400, { "content-type": "text/html" });
        res.end(
          page("effectgate", "This sign-in does not match the one effectgate started; nothing was done."),
        );
        return;
      }
      this.expected = undefined;
      const error = url.searchParams.get("error");
      if (error !== null) {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(page("effectgate", "The authorization server refused the sign-in. You can close this tab."));
        want.reject(new Error(`the authorization server refused: ${error}`));
        return;
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(page("effectgate", "Signed in. You can close this tab and go back to your client."));
      want.resolve(url.searchParams);
    });
    const bind = (p: number): Promise<number> =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(p, "127.0.0.1", () => {
          server.off("error", reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
    try {
      this.port = await bind(port ?? 0);
    } catch (err) {
      if (o.exact)
        throw new Error(
          `cannot listen for the OAuth callback on 127.0.0.1:${port}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
          { cause: err },
        );
      this.port = await bind(0);
    }
    server.unref();
    this.server = server;
    return this.url();
  }

  url(): string {
    if (this.port === undefined) throw new Error("the OAuth callback is not listening yet");
    return `http://127.0.0.1:${this.port}${PATH}`;
  }

  /** The next callback with this state, within `timeoutMs`. */
  expect(state: string, timeoutMs: number): Promise<URLSearchParams> {
    this.expected?.reject(new Error("a newer authorisation was started"));
    return new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.expected?.state === state) this.expected = undefined;
        reject(new Error(`no sign-in came back within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      this.expected = {
        state,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }

  async close(): Promise<void> {
    this.expected?.reject(new Error("effectgate is stopping"));
    this.expected = undefined;
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }
}
