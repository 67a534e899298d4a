/**
 * One sign-in at a time (decision 0116): two `effectgate --url` processes started together for
 * one server, against a real loopback authorization server, with a browser that takes a while.
 * Without the lock both would open a browser and both would redeem a code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../e2e/harness.js";
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

describe("two relays signing in to one server at once", () => {
  it("opens one browser and redeems one code; the other waits and uses the tokens it saved", async () => {
    fx = await oauthServers();
    const box = remoteSandbox();
    boxes.push(box);
    const log = join(box.home, "browser.jsonl");
    const env = { ...box.env, BROWSER, BROWSER_LOG: log, BROWSER_DELAY_MS: "2500" };
    const [a, b] = await Promise.all([
      bridged(fx.url, { env, home: box.home }),
      bridged(fx.url, { env, home: box.home }),
    ]);
    const answers = await Promise.all([
      a.client.callTool({ name: "echo", arguments: { text: "from a" } }),
      b.client.callTool({ name: "echo", arguments: { text: "from b" } }),
    ]);
    const stderr = a.stderr() + b.stderr();
    await a.client.close();
    await b.client.close();
    expect(answers.map((r) => r.content)).toEqual([
      [{ type: "text", text: "from a" }],
      [{ type: "text", text: "from b" }],
    ]);
    const opened = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(opened, stderr).toHaveLength(1);
    expect(fx.events.filter((e) => e.kind === "authorize")).toHaveLength(1);
    expect(fx.events.filter((e) => e.kind === "token")).toHaveLength(1);
    expect(stderr).toContain("another effectgate process is signing in to this server");
    // One token for both, and no lock left behind.
    expect(new Set(fx.bearers).size).toBe(1);
    const dir = join(box.home, ".effectgate", "oauth");
    expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });
});
