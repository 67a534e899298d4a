/**
 * One refresh at a time (decision 0136): two `effectgate --url` processes for one server share
 * its token file. When the access token dies, both meet a 401 at once. The loopback authorization
 * server rotates refresh tokens and refuses a reused one, and takes a while to answer a refresh,
 * so without the lock both would spend the same refresh token: the loser's is refused and it
 * falls back to a second browser sign-in.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../e2e/harness.js";
import { oauthServers, type OAuthFixture } from "../../helpers/oauth-fixture.js";
import { bridged, remoteSandbox, type Bridged } from "./harness.js";

const BROWSER = join(ROOT, "tests", "fixtures", "remote", "headless-browser.mjs");

let fx: OAuthFixture | undefined;
const open: Bridged[] = [];
const boxes: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.client.close();
  await fx?.close();
  fx = undefined;
  for (const b of boxes.splice(0)) b.cleanup();
});

/**
 * Two relays for one server sharing one home: a signs in (the browser opens once), b starts
 * after it, with the tokens a saved, and cannot listen on a's callback port.
 */
async function twoRelays(server: OAuthFixture) {
  const box = remoteSandbox();
  boxes.push(box);
  const log = join(box.home, "browser.jsonl");
  const env = { ...box.env, BROWSER, BROWSER_LOG: log };
  const a = await bridged(server.url, { env, home: box.home });
  open.push(a);
  const b = await bridged(server.url, { env, home: box.home });
  open.push(b);
  return { box, log, a, b };
}

describe("two relays refreshing one server's tokens at once", () => {
  it("spends each refresh token once; the other relay uses the tokens the first saved", async () => {
    fx = await oauthServers({ refreshDelayMs: 700 });
    const { box, log, a, b } = await twoRelays(fx);
    const call = (who: Bridged, text: string) => who.client.callTool({ name: "echo", arguments: { text } });

    for (const round of [1, 2]) {
      fx.expireAccessTokens();
      const answers = await Promise.all([call(a, `a${round}`), call(b, `b${round}`)]);
      const stderr = a.stderr() + b.stderr();
      expect(
        answers.map((r) => r.content),
        stderr,
      ).toEqual([[{ type: "text", text: `a${round}` }], [{ type: "text", text: `b${round}` }]]);
      const refreshes = fx.events.filter((e) => e.kind === "refresh");
      expect(
        refreshes.map((e) => e.detail["ok"]),
        stderr,
      ).toEqual(Array.from({ length: round }, () => true));
    }
    // One sign-in in all: no refused refresh sent anyone back to the browser.
    const said = `${JSON.stringify(fx.events)}\n${a.stderr()}\n${b.stderr()}`;
    expect(
      fx.events.filter((e) => e.kind === "authorize"),
      said,
    ).toHaveLength(1);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean)).toHaveLength(1);
    const dir = join(box.home, ".effectgate", "oauth");
    expect(readdirSync(dir).filter((f) => f.includes(".lock"))).toEqual([]);
  });

  it("a relay that listens on another port refreshes with the registration the tokens were issued to", async () => {
    // b cannot listen on the port a registered (a holds it), so a new registration would name
    // another redirect; but a refresh sends none. Before the fix, b registered anew, the
    // authorization server refused a's refresh token for b's client, and b opened the browser.
    fx = await oauthServers();
    const { log, a, b } = await twoRelays(fx);
    fx.expireAccessTokens();
    const answer = await b.client.callTool({ name: "echo", arguments: { text: "b" } });
    const said = `${JSON.stringify(fx.events)}\n${b.stderr()}`;
    expect(answer.content, said).toEqual([{ type: "text", text: "b" }]);
    expect(
      fx.events.map((e) => e.kind),
      said,
    ).toEqual(["register", "authorize", "token", "refresh"]);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean)).toHaveLength(1);
    // a, whose access token died too, goes on with the tokens b saved.
    const again = await a.client.callTool({ name: "echo", arguments: { text: "a" } });
    expect(again.content, a.stderr()).toEqual([{ type: "text", text: "a" }]);
    expect(fx.events.filter((e) => e.kind === "authorize")).toHaveLength(1);
  });
});
