/**
 * OAuth 2.1 through the bridge, against a real loopback authorization server and a resource
 * server that demands its tokens (tests/helpers/oauth-fixture.ts), the browser step driven by a
 * headless browser started as $BROWSER (tests/fixtures/remote/headless-browser.mjs).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openBrowser } from "../../../src/relay/remote/auth/browser.js";
import { RawClient, ROOT } from "../../e2e/harness.js";
import { oauthServers, type OAuthFixture } from "../../helpers/oauth-fixture.js";
import { bridged, remoteSandbox } from "./harness.js";

const BROWSER = join(ROOT, "tests", "fixtures", "remote", "headless-browser.mjs");

let fx: OAuthFixture | undefined;
const boxes: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  for (const b of boxes.splice(0)) b.cleanup();
});

/** One `initialize` sent through `effectgate --url URL`, and its answer; the relay is then closed. */
async function initializeThrough(url: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const raw = new RawClient(["--url", url], env);
  try {
    return await raw.request({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
  } finally {
    await raw.close();
  }
}

function signedInBox(): { home: string; env: NodeJS.ProcessEnv; opened(): string[][] } {
  const b = remoteSandbox();
  boxes.push(b);
  const log = join(b.home, "browser.jsonl");
  return {
    home: b.home,
    env: { ...b.env, BROWSER, BROWSER_LOG: log },
    opened: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as string[])
        : [],
  };
}

function sessionLogs(home: string): string {
  const dir = join(home, ".effectgate", "sessions");
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("OAuth through effectgate --url", () => {
  it("signs in once through the browser (discovery, registration, PKCE, resource), then reuses the stored token", async () => {
    fx = await oauthServers();
    const box = signedInBox();
    const first = await bridged(fx.url, { env: box.env, home: box.home });
    const r = await first.client.callTool({ name: "echo", arguments: { text: "signed in" } });
    await first.client.close();
    expect(r.content).toEqual([{ type: "text", text: "signed in" }]);

    const opened = box.opened();
    expect(opened).toHaveLength(1);
    expect(opened[0]).toHaveLength(1); // one argument: the URL, no shell in between
    const auth = new URL(opened[0]![0]!);
    expect(auth.origin).toBe(fx.asUrl);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.searchParams.get("resource")).toBe(fx.url);
    expect(auth.searchParams.get("state")).toBeTruthy();
    expect(new URL(auth.searchParams.get("redirect_uri")!).hostname).toBe("127.0.0.1");
    expect(fx.events.map((e) => e.kind)).toEqual(["register", "authorize", "token"]);
    expect(fx.events[1]?.detail["resource"]).toBe(fx.url);

    // Owner-only under EFFECTGATE_HOME, and the tokens never reach the session log.
    const dir = join(box.home, ".effectgate", "oauth");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    const stored = readFileSync(join(dir, file!), "utf8");
    const token = fx.bearers[fx.bearers.length - 1]!;
    expect(stored).toContain(token);
    expect(sessionLogs(box.home)).not.toContain(token);
    expect(first.stderr()).not.toContain(token);
    // The page is named on stderr too, for when no browser opens.
    expect(first.stderr()).toContain(`visit: ${opened[0]![0]!}`);

    const second = await bridged(fx.url, { env: box.env, home: box.home });
    await second.client.callTool({ name: "echo", arguments: { text: "again" } });
    await second.client.close();
    expect(box.opened()).toHaveLength(1);
    expect(fx.events.filter((e) => e.kind === "authorize")).toHaveLength(1);
  });

  it("refreshes an expired token without the browser", async () => {
    fx = await oauthServers({ accessTtlSeconds: 1 });
    const box = signedInBox();
    const b = await bridged(fx.url, { env: box.env, home: box.home });
    await b.client.callTool({ name: "echo", arguments: { text: "1" } });
    await new Promise((r) => setTimeout(r, 1600));
    const later = await b.client.callTool({ name: "echo", arguments: { text: "2" } });
    await b.client.close();
    expect(later.content).toEqual([{ type: "text", text: "2" }]);
    expect(fx.events.map((e) => e.kind)).toEqual(["register", "authorize", "token", "refresh"]);
    expect(box.opened()).toHaveLength(1);
  });

  it("steps up on 403 insufficient_scope: signs in again for the wider scope, and the call goes through", async () => {
    fx = await oauthServers({ writeScope: "files:write" });
    const box = signedInBox();
    const b = await bridged(fx.url, { env: box.env, home: box.home });
    await b.client.callTool({ name: "echo", arguments: { text: "read" } });
    const w = await b.client.callTool({ name: "write_file", arguments: { path: "a.txt", content: "x" } });
    await b.client.close();
    expect(w.isError).toBeFalsy();
    const authorizations = fx.events.filter((e) => e.kind === "authorize");
    expect(authorizations).toHaveLength(2);
    expect(authorizations[1]?.detail["scopes"]).toEqual(expect.arrayContaining(["mcp", "files:write"]));
    expect(fx.mcp.calls().map((c) => c.name)).toEqual(["echo", "write_file"]);
  });

  it("uses a pre-registered client as given, never registering one", async () => {
    const port = await freePort();
    fx = await oauthServers({
      preRegistered: {
        clientId: "effectgate-desktop",
        redirectUri: `http://127.0.0.1:${port}/oauth/callback`,
      },
    });
    const box = signedInBox();
    const b = await bridged(fx.url, {
      env: box.env,
      home: box.home,
      args: ["--oauth-client-id", "effectgate-desktop", "--oauth-callback-port", String(port)],
    });
    await b.client.callTool({ name: "echo", arguments: { text: "pre" } });
    await b.client.close();
    expect(fx.events.map((e) => e.kind)).toEqual(["authorize", "token"]);
    expect(new URL(box.opened()[0]![0]!).searchParams.get("client_id")).toBe("effectgate-desktop");
  });

  it("checks iss before redeeming the code (RFC 9207): an answer from another issuer is refused", async () => {
    fx = await oauthServers({ issInResponse: () => "https://attacker.example/" });
    const box = signedInBox();
    const answer = await initializeThrough(fx.url, box.env);
    expect(JSON.stringify(answer["error"])).toMatch(/iss/i);
    expect(fx.events.map((e) => e.kind)).toEqual(["register", "authorize"]);
    expect(fx.mcp.requests).toEqual([]);
  });

  it("refuses an authorization server at a cloud metadata address (SSRF), opening no browser", async () => {
    fx = await oauthServers({ authorizationServers: () => ["https://169.254.169.254/"] });
    const box = signedInBox();
    const answer = await initializeThrough(fx.url, box.env);
    expect(JSON.stringify(answer["error"])).toMatch(/SSRF guard/);
    expect(box.opened()).toEqual([]);
    expect(fx.events).toEqual([]);
  });

  it("follows no discovery redirect to another origin: the server it names is never reached", async () => {
    // The authorization server the resource names answers every request with a redirect to
    // another origin (another port on this machine): nothing may follow it there.
    let reached = 0;
    let redirected = 0;
    const target = createHttpServer((_req, res) => {
      reached++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const redirector = createHttpServer((req, res) => {
      redirected++;
      const port = (target.address() as { port: number }).port;
      res.writeHead(307, { location: `http://127.0.0.1:${port}${req.url ?? "/"}` }).end();
    });
    await Promise.all(
      [target, redirector].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()))),
    );
    const at = `http://127.0.0.1:${(redirector.address() as { port: number }).port}/`;
    try {
      fx = await oauthServers({ authorizationServers: () => [at] });
      const box = signedInBox();
      const answer = await initializeThrough(fx.url, box.env);
      expect(answer["error"]).toBeDefined();
      expect(redirected).toBeGreaterThan(0);
      expect(reached).toBe(0);
      expect(box.opened()).toEqual([]);
    } finally {
      for (const s of [target, redirector]) s.closeAllConnections();
      await Promise.all([target, redirector].map((s) => new Promise<void>((r) => s.close(() => r()))));
    }
  });

  it("starts the browser without a shell: the URL is one argument, and nothing in it runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "effectgate-browser-"));
    const log = join(dir, "opened.jsonl");
    const planted = join(dir, "planted");
    const url = `https://as.example/authorize?a=1&b=$(touch ${planted})&c=\`touch ${planted}\`;touch ${planted}`;
    const failures: string[] = [];
    openBrowser(url, (why) => failures.push(why), "linux", { ...process.env, BROWSER, BROWSER_LOG: log });
    for (let i = 0; i < 200 && !existsSync(log); i++) await new Promise((r) => setTimeout(r, 25));
    const got = readFileSync(log, "utf8");
    rmSync(dir, { recursive: true, force: true });
    expect(failures).toEqual([]);
    expect(JSON.parse(got.split("\n")[0]!)).toEqual([url]);
    expect(existsSync(planted)).toBe(false);
  });

  it("says why when no browser can be started", () => {
    const failures: string[] = [];
    openBrowser("https://as.example/authorize", (why) => failures.push(why), "linux", {
      ...process.env,
      BROWSER: "/nonexistent/browser",
    });
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        expect(failures.join(" ")).toMatch(/ENOENT/);
        resolve();
      }, 300),
    );
  });
});
