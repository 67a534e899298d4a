/**
 * Machine to machine: `--oauth-client-credentials ISSUER` redeems a pre-registered client's
 * secret (from an environment variable) at the token endpoint of a real loopback authorization
 * server, through the SDK's ClientCredentialsProvider. No browser opens, and the secret reaches
 * neither the command line nor the session log.
 */
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
      "--oauth-client-credentials: expected --oauth-client-id and one of --oauth-client-secret-env, --oauth-client-key-file or --oauth-client-key-env too",
    );
  });
});

describe("the client-credentials grant with a signed JWT (private_key_jwt)", () => {
  const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const pem = keys.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const keyBody = pem.split("\n")[1] as string;

  function keyFile(box: { home: string }, mode: number): string {
    const file = join(box.home, "ci-bot.pem");
    writeFileSync(file, pem, { mode });
    chmodSync(file, mode);
    return file;
  }

  it("signs a JWT with the key from a file of the user's, sends no secret, and logs no key", async () => {
    fx = await oauthServers({ machineClient: { clientId: "ci-bot", publicKey: keys.publicKey } });
    const box = remoteSandbox();
    boxes.push(box);
    const log = join(box.home, "browser.jsonl");
    const env = { ...box.env, BROWSER, BROWSER_LOG: log };
    const args = [
      "--oauth-client-id",
      "ci-bot",
      "--oauth-client-key-file",
      keyFile(box, 0o600),
      "--oauth-client-credentials",
      fx.asUrl,
    ];
    const b = await bridged(fx.url, { env, home: box.home, args });
    const r = await b.client.callTool({ name: "echo", arguments: { text: "signed" } });
    const stderr = b.stderr();
    await b.client.close();
    expect(r.content, stderr).toEqual([{ type: "text", text: "signed" }]);
    expect(existsSync(log)).toBe(false);
    const tokens = fx.events.filter((e) => e.kind === "token");
    expect(tokens.map((e) => [e.detail["grant"], e.detail["ok"], e.detail["basic"]])).toEqual([
      ["client_credentials", true, false],
    ]);
    const dir = join(box.home, ".effectgate", "sessions");
    const logs = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"));
    expect(logs.join("")).not.toContain(keyBody);
    expect(logs.join("")).not.toContain(String(tokens[0]?.detail["assertion"]));
    expect(stderr).not.toContain(keyBody);
  });

  it("takes the key from an environment variable too", async () => {
    fx = await oauthServers({ machineClient: { clientId: "ci-bot", publicKey: keys.publicKey } });
    const box = remoteSandbox();
    boxes.push(box);
    const env = { ...box.env, CI_BOT_KEY: pem };
    const args = [
      "--oauth-client-id",
      "ci-bot",
      "--oauth-client-key-env",
      "CI_BOT_KEY",
      "--oauth-client-credentials",
      fx.asUrl,
    ];
    const b = await bridged(fx.url, { env, home: box.home, args });
    const r = await b.client.callTool({ name: "echo", arguments: { text: "from env" } });
    await b.client.close();
    expect(r.content).toEqual([{ type: "text", text: "from env" }]);
    expect(fx.events.filter((e) => e.kind === "token").map((e) => e.detail["ok"])).toEqual([true]);
  });

  it("refuses a key file others can read, and a key given with a secret, before starting", async () => {
    const box = remoteSandbox();
    boxes.push(box);
    const { spawnSync } = await import("node:child_process");
    const { CLI } = await import("../../e2e/harness.js");
    const run = (args: string[], env: NodeJS.ProcessEnv = box.env) =>
      spawnSync(process.execPath, [CLI, "--url", "https://mcp.example.com/mcp", ...args], {
        env,
        encoding: "utf8",
        input: "",
      });
    const cc = ["--oauth-client-id", "ci-bot", "--oauth-client-credentials", "https://auth.example.com"];
    const loose = run([...cc, "--oauth-client-key-file", keyFile(box, 0o644)]);
    expect(loose.status).toBe(2);
    expect(loose.stderr).toContain(
      "--oauth-client-key-file: expected a key file only you can read (0600 or 0400), got mode 0644",
    );
    expect(loose.stderr).not.toContain(keyBody);
    const both = run([...cc, "--oauth-client-key-env", "K", "--oauth-client-secret-env", "S"], {
      ...box.env,
      K: pem,
      S: "s",
    });
    expect(both.status).toBe(2);
    expect(both.stderr).toContain(
      "--oauth-client-key-env: expected a key or --oauth-client-secret-env, not both",
    );
    const alone = run(["--oauth-client-key-env", "K"], { ...box.env, K: pem });
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--oauth-client-key-env: expected --oauth-client-credentials too");
  });
});
