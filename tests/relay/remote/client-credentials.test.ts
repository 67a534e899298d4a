/**
 * Machine to machine: `--oauth-client-credentials ISSUER` redeems a pre-registered client's
 * secret (from an environment variable) at the token endpoint of a real loopback authorization
 * server, through the SDK's ClientCredentialsProvider. No browser opens, and the secret reaches
 * neither the command line nor the session log.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../e2e/harness.js";
import { oauthServers, type OAuthFixture } from "../../helpers/oauth-fixture.js";
import { bridged, remoteSandbox } from "./harness.js";

const BROWSER = join(ROOT, "tests", "fixtures", "remote", "headless-browser.mjs");
const SECRET = "machine-secret-0123456789";

let fx: OAuthFixture | undefined;
const boxes: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  for (const b of boxes.splice(0)) b.cleanup();
});

describe("the client-credentials grant through effectgate --url", () => {
  it("gets a token with the client's secret, no browser, and the secret is never logged", async () => {
    fx = await oauthServers({ machineClient: { clientId: "ci-bot", clientSecret: SECRET } });
    const box = remoteSandbox();
    boxes.push(box);
    const log = join(box.home, "browser.jsonl");
    const env = { ...box.env, BROWSER, BROWSER_LOG: log, CI_BOT_SECRET: SECRET };
    const args = [
      "--oauth-client-id",
      "ci-bot",
      "--oauth-client-secret-env",
      "CI_BOT_SECRET",
      "--oauth-client-credentials",
      fx.asUrl,
    ];
    const b = await bridged(fx.url, { env, home: box.home, args });
    const r = await b.client.callTool({ name: "echo", arguments: { text: "as a machine" } });
    const stderr = b.stderr();
    await b.client.close();
    expect(r.content, stderr).toEqual([{ type: "text", text: "as a machine" }]);
    expect(existsSync(log)).toBe(false);
    const tokens = fx.events.filter((e) => e.kind === "token");
    expect(tokens.map((e) => [e.detail["grant"], e.detail["clientId"], e.detail["ok"]])).toEqual([
      ["client_credentials", "ci-bot", true],
    ]);
    expect(fx.events.some((e) => e.kind === "authorize" || e.kind === "register")).toBe(false);
    const dir = join(box.home, ".effectgate", "sessions");
    const logs = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"));
    expect(logs.join("")).not.toContain(SECRET);
    expect(stderr).not.toContain(SECRET);
  });

  it("refuses to start without the client's id and secret, saying what it expected", async () => {
    const box = remoteSandbox();
    boxes.push(box);
    const { spawnSync } = await import("node:child_process");
    const { CLI } = await import("../../e2e/harness.js");
    const r = spawnSync(
      process.execPath,
      [CLI, "--url", "https://mcp.example.com/mcp", "--oauth-client-credentials", "https://auth.example.com"],
      { env: box.env, encoding: "utf8", input: "" },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "--oauth-client-credentials: expected --oauth-client-id and --oauth-client-secret-env too",
    );
  });
});
