// The pages of `replay --html` and `status --html` in a real browser (issue 24): Debian's
// headless Chromium loads them, finds the refused calls, opens one to its effect, rule and
// remedy, and takes a screenshot (in a temporary folder, deleted). Hostile names, arguments and
// results must show as text: no element, script, dialog or request may come out of them.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, sandbox } from "../helpers/pins.js";
import { echoSession, tool } from "../helpers/relay-sessions.js";

const CHROMIUM = "/usr/bin/chromium";
const present = existsSync(CHROMIUM);
if (!present) {
  // CI installs it (.ci/run): there a missing browser is a failure, not a reason to skip.
  if (process.env["CI"] === "true")
    throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
  console.warn(`\n!!! SKIPPING the HTML page checks: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);
}

const HOSTILE_TOOL = `<img src=x onerror="document.title='pwned'">`;
const HOSTILE_NAME = `</h2><script>document.title='pwned'</script>`;
const HOSTILE_TEXT = `</pre></details><iframe src="https://evil.example/"></iframe>\u202eexe.txt`;

let box: ReturnType<typeof sandbox>;
let shots: string;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!present) return;
  box = sandbox();
  shots = mkdtempSync(join(tmpdir(), "eg-shots-"));
  profile = mkdtempSync(join(tmpdir(), "eg-chromium-"));
  const ssh = join(box.home, ".ssh", "authorized_keys");
  await echoSession(box, { level: "enforce", name: HOSTILE_NAME }, [
    tool(3, "write_file", { path: ssh, content: HOSTILE_TEXT }),
    tool(4, HOSTILE_TOOL, { path: join(box.dir, "notes.md"), note: HOSTILE_TEXT }),
    tool(5, "fetch", { url: "https://example.com/" }),
    tool(6, "write_file", { path: join(box.dir, "package.json"), content: "{}" }),
  ]);
  expect(cli(box, ["replay", "--html", join(box.dir, "replay.html")]).code).toBe(0);
  expect(cli(box, ["status", "--html", join(box.dir, "status.html")]).code).toBe(0);
  // A fresh profile folder (--user-data-dir), deleted afterwards.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 120_000);

afterAll(async () => {
  if (!present) return;
  await browser?.close();
  for (const d of [box.dir, shots, profile]) rmSync(d, { recursive: true, force: true });
});

/** Opens a page, noting every request, dialog and script error it causes. */
async function open(
  file: string,
): Promise<{ page: Page; requests: string[]; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${file}`, { waitUntil: "load" });
  return { page, requests, dialogs, errors };
}

async function nothingRan(o: Awaited<ReturnType<typeof open>>): Promise<void> {
  const { page } = o;
  expect(await page.title()).not.toContain("pwned");
  expect(await page.locator("script, img, iframe, object, embed, link, form").count()).toBe(0);
  expect(o.dialogs).toEqual([]);
  expect(o.errors).toEqual([]);
  // Only the page itself was loaded: no asset, no network.
  expect(o.requests.every((u) => u.startsWith("file://"))).toBe(true);
  expect(o.requests).toHaveLength(1);
}

describe.skipIf(!present)("HTML pages in headless Chromium", () => {
  it("replay --html: finds the refused call and opens it to its effect, rule and remedy", async () => {
    const o = await open(join(box.dir, "replay.html"));
    const { page } = o;
    await nothingRan(o);
    const refused = page.locator('[data-refused="true"]');
    expect(await refused.count()).toBeGreaterThanOrEqual(3); // the call, the refusal, the answer
    const refusal = page.locator("details.refusal").first();
    expect(await refusal.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    await refusal.locator("summary").click();
    expect(await refusal.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    const text = await refusal.innerText();
    expect(text).toContain(`write ${join(box.home, ".ssh", "authorized_keys")}`);
    expect(text).toContain("paths.deny ~/.ssh/**");
    expect(text).toContain("The user can:");
    // Hostile strings are there, as text, with the bidi override made visible.
    const body = await page.locator("body").innerText();
    expect(body).toContain(HOSTILE_TOOL);
    expect(body).toContain(HOSTILE_NAME);
    expect(body).toContain("\\u202eexe.txt");
    expect(body).not.toContain("\u202e");
    // Calls coloured by verdict on the timeline: one refused, one noted (package.json), allowed ones.
    expect(await page.locator("circle.dot.refused").count()).toBe(1);
    expect(await page.locator("circle.dot.notice").count()).toBe(1);
    expect(await page.locator("circle.dot.allow").count()).toBe(2);
    const shot = join(shots, "replay.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");
  }, 60_000);

  it("status --html: the would-be refusals by rule, with the way out, and the session drawn", async () => {
    const o = await open(join(box.dir, "status.html"));
    const { page } = o;
    await nothingRan(o);
    const enforce = page.locator('section[data-level="enforce"]');
    expect(await enforce.locator("h2").innerText()).toBe("At enforce: 1 call would have been refused");
    expect(await enforce.innerText()).toContain('remove "~/.ssh/**" from paths.deny');
    expect(await enforce.innerText()).toContain("effectgate install --level enforce");
    expect(await page.locator("svg.timeline").count()).toBe(1);
    expect(await page.locator("body").innerText()).toContain(HOSTILE_NAME);
    await page.screenshot({ path: join(shots, "status.png"), fullPage: true });
    expect(statSync(join(shots, "status.png")).size).toBeGreaterThan(10_000);
  }, 60_000);
});
