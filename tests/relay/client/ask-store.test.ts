// The store the relay and `effectgate pending` / `allow` share: questions and grants as owner-only
// records under EFFECTGATE_HOME, with expiry judged against an injected clock.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  AskStore,
  MAX_GRANT_MS,
  ONE_USE_TTL_MS,
  PENDING_TTL_MS,
  type NewQuestion,
} from "../../../src/relay/client/ask-store.js";

const root = mkdtempSync(join(tmpdir(), "eg-ask-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function store(): { s: AskStore; clock: { t: number }; home: string } {
  const home = join(root, `h${++n}`);
  const clock = { t: 1_000_000 };
  return { s: new AskStore(home, () => clock.t), clock, home };
}

const question = (key: string): NewQuestion => ({
  key,
  server: "fs",
  method: "tools/call",
  tool: "write_file",
  effects: [{ verb: "write", target: "/p/package.json" }],
  rule: "paths.confirm **/package.json",
  reason: "writes a file that runs code later",
  question: "allow?",
  pid: 1,
  cwd: "/p",
});

const posix = process.platform !== "win32";

describe("AskStore", () => {
  it("the same effect asked twice waits under one id; another effect gets its own", () => {
    const { s } = store();
    const a = s.addPending(question("k1"));
    expect(s.addPending(question("k1")).id).toBe(a.id);
    expect(s.addPending(question("k2")).id).not.toBe(a.id);
    expect(
      s
        .listPending()
        .map((q) => q.key)
        .sort(),
    ).toEqual(["k1", "k2"]);
  });

  it("a question is gone once it expires", () => {
    const { s, clock } = store();
    s.addPending(question("k1"));
    clock.t += PENDING_TTL_MS - 1;
    expect(s.listPending()).toHaveLength(1);
    clock.t += 1;
    expect(s.listPending()).toEqual([]);
  });

  it("a grant for one call fits only its key, is used up by the first call, and expires", () => {
    const { s, clock } = store();
    const a = s.addPending(question("k1"));
    s.grant(a.id);
    expect(s.listPending()).toEqual([]);
    expect(s.takeGrant("k2")).toBeUndefined();
    expect(s.takeGrant("k1")?.id).toBe(a.id);
    expect(s.takeGrant("k1")).toBeUndefined();

    const b = s.addPending(question("k1"));
    s.grant(b.id);
    clock.t += ONE_USE_TTL_MS;
    expect(s.takeGrant("k1")).toBeUndefined();
  });

  it("a grant --for fits every call until it expires, and is never longer than a day", () => {
    const { s, clock } = store();
    const a = s.addPending(question("k1"));
    const g = s.grant(a.id, 10 * 60_000);
    expect(g.expires - g.created).toBe(10 * 60_000);
    expect(s.takeGrant("k1")).toBeDefined();
    clock.t += 10 * 60_000 - 1;
    expect(s.takeGrant("k1")).toBeDefined();
    clock.t += 1;
    expect(s.takeGrant("k1")).toBeUndefined();
    const b = s.addPending(question("k2"));
    const long = s.grant(b.id, 7 * MAX_GRANT_MS);
    expect(long.expires - long.created).toBe(MAX_GRANT_MS);
  });

  it("an id that waits for nothing is not granted", () => {
    const { s } = store();
    expect(() => s.grant("0badc0de")).toThrow("no question waits as 0badc0de");
  });

  it.runIf(posix)("a grant others could have written, or a link, is not believed", () => {
    const { s } = store();
    const a = s.addPending(question("k1"));
    s.grant(a.id, 60_000);
    const file = join(s.grantsDir, `${a.id}.json`);
    chmodSync(file, 0o644);
    expect(s.takeGrant("k1")).toBeUndefined();
    chmodSync(file, 0o600);
    expect(s.takeGrant("k1")).toBeDefined();

    // A link to a grant-shaped file elsewhere approves nothing.
    const b = s.addPending(question("k2"));
    const forged = join(root, `forged-${n}.json`);
    writeFileSync(
      forged,
      JSON.stringify({ id: b.id, key: "k2", created: 0, expires: 9e15, uses: "until-expiry" }),
      {
        mode: 0o600,
      },
    );
    symlinkSync(forged, join(s.grantsDir, `${b.id}.json`));
    expect(s.takeGrant("k2")).toBeUndefined();
  });

  it.runIf(posix)("the folders and records are owner-only", () => {
    const { s, home } = store();
    const a = s.addPending(question("k1"));
    s.grant(a.id);
    expect(readdirSync(join(home, "asks")).sort()).toEqual(["grants", "pending"]);
    for (const p of [join(home, "asks"), s.pendingDir, s.grantsDir, join(s.grantsDir, `${a.id}.json`)])
      expect(statSync(p).mode & 0o077, p).toBe(0);
  });
});
