/**
 * Cross-app access (SEP-990, decision 0135): `--oauth-cross-app`
 * exchanges the user's ID token at the enterprise IdP's token endpoint for an ID-JAG, and the MCP
 * server's authorization server redeems it for a token, with no browser. The ID token goes to
 * the named IdP endpoint only and reaches neither stderr nor the session log.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, ROOT } from "../../e2e/harness.js";
import { oauthServers, type OAuthFixture } from "../../helpers/oauth-fixture.js";
import { bridged, remoteSandbox } from "./harness.js";

const BROWSER = join(ROOT, "tests", "fixtures", "remote", "headless-browser.mjs");
const ID_TOKEN = "id-token-of-the-user-0123456789";
const SECRET = "xaa-secret-0123456789";

let fx: OAuthFixture | undefined;
const boxes: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  for (const b of boxes.splice(0)) b.cleanup();
});

describe("cross-app access through effectgate --url", () => {
  it("exchanges the ID token for an ID-JAG and redeems it, with no browser and nothing logged", async () => {
    fx = await oauthServers({ crossApp: { idToken: ID_TOKEN, clientId: "xaa-app", clientSecret: SECRET } });
    const box = remoteSandbox();
    boxes.push(box);
    const log = join(box.home, "browser.jsonl");
    const env = { ...box.env, BROWSER, BROWSER_LOG: log, XAA_SECRET: SECRET, MY_ID_TOKEN: ID_TOKEN };
    const args = [
      "--oauth-client-id",
      "xaa-app",
      "--oauth-client-secret-env",
      "XAA_SECRET",
      "--oauth-cross-app",
      fx.asUrl,
      "--oauth-idp-token-endpoint",
      `${fx.asUrl}/idp/token`,
      "--oauth-idp-client-id",
      "idp-client",
      "--oauth-id-token-env",
      "MY_ID_TOKEN",
    ];
    const b = await bridged(fx.url, { env, home: box.home, args });
    const r = await b.client.callTool({ name: "echo", arguments: { text: "enterprise" } });
    const stderr = b.stderr();
    await b.client.close();
    expect(r.content, stderr).toEqual([{ type: "text", text: "enterprise" }]);
    expect(existsSync(log)).toBe(false);
    const exchanges = fx.events.filter((e) => e.kind === "exchange");
    expect(exchanges.map((e) => e.detail)).toEqual([
      { ok: true, audience: new URL(fx.asUrl).href, resource: fx.url },
    ]);
    const tokens = fx.events.filter((e) => e.kind === "token");
    expect(tokens.map((e) => [e.detail["grant"], e.detail["clientId"], e.detail["ok"]])).toEqual([
      ["urn:ietf:params:oauth:grant-type:jwt-bearer", "xaa-app", true],
    ]);
    const dir = join(box.home, ".effectgate", "sessions");
    const logs = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("");
    for (const secret of [ID_TOKEN, SECRET]) {
      expect(logs).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
  });

  it("asks the IdP for nothing when the server names another authorization server", async () => {
    fx = await oauthServers({ crossApp: { idToken: ID_TOKEN, clientId: "xaa-app", clientSecret: SECRET } });
    const box = remoteSandbox();
    boxes.push(box);
    const env = { ...box.env, XAA_SECRET: SECRET, MY_ID_TOKEN: ID_TOKEN };
    const args = [
      "--oauth-client-id",
      "xaa-app",
      "--oauth-client-secret-env",
      "XAA_SECRET",
      "--oauth-cross-app",
      "https://auth.elsewhere.example",
      "--oauth-idp-token-endpoint",
      `${fx.asUrl}/idp/token`,
      "--oauth-idp-client-id",
      "idp-client",
      "--oauth-id-token-env",
      "MY_ID_TOKEN",
    ];
    await expect(bridged(fx.url, { env, home: box.home, args })).rejects.toThrow();
    expect(fx.events.filter((e) => e.kind === "exchange" || e.kind === "token")).toEqual([]);
  });

  it("refuses to start with a part missing or a stray IdP option, naming what it expected", () => {
    const box = remoteSandbox();
    boxes.push(box);
    const run = (args: string[]) =>
      spawnSync(process.execPath, [CLI, "--url", "https://mcp.example.com/mcp", ...args], {
        env: { ...box.env, S: "s", T: "t" },
        encoding: "utf8",
        input: "",
      });
    const stray = run(["--oauth-id-token-env", "T"]);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain("--oauth-id-token-env: expected --oauth-cross-app too");
    const partial = run([
      "--oauth-client-id",
      "app",
      "--oauth-client-secret-env",
      "S",
      "--oauth-cross-app",
      "https://auth.example.com",
    ]);
    expect(partial.status).toBe(2);
    expect(partial.stderr).toContain(
      "--oauth-cross-app: expected --oauth-idp-token-endpoint, --oauth-idp-client-id, --oauth-id-token-env too",
    );
    const noClient = run(["--oauth-cross-app", "https://auth.example.com"]);
    expect(noClient.status).toBe(2);
    expect(noClient.stderr).toContain(
      "--oauth-cross-app: expected --oauth-client-id and --oauth-client-secret-env too",
    );
  });
});
