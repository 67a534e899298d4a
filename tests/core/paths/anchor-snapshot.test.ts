// One call's snapshot of the anchors (decision 0146): each anchor of a list is asked once per
// call however many paths are matched against the list, and the answers are the resolver's.
import { describe, expect, it } from "vitest";
import type { PathPattern } from "../../../src/core/paths/api.js";
import { anchorSnapshots } from "../../../src/core/paths/anchor-snapshot.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { createPatternSet } from "../../../src/core/paths/pattern-set.js";
import { fakeResolver, LINUX } from "../../helpers/profiles.js";

function set(bodies: string[]) {
  const patterns: PathPattern[] = [];
  for (const b of bodies) {
    const c = compilePathPattern(b, LINUX);
    if (c.ok) patterns.push(c.pattern);
  }
  return createPatternSet(patterns, "linux");
}

const BODIES = ["/etc/**", "~/.ssh/**", "~/.aws/**", "~/.bashrc", "**/.env"];
const PATHS = ["/home/u/proj/a.ts", "/keys/credentials", "/home/u/.bashrc", "/srv/x/.env"];

describe("anchorSnapshots", () => {
  it("asks each anchor of a list once for a whole call, not once per path", () => {
    const s = set(BODIES);
    const plain = fakeResolver({ "/home/u/.aws": "/keys" });
    for (const p of PATHS) s.first(p, plain);
    const snapped = fakeResolver({ "/home/u/.aws": "/keys" });
    const snapshots = anchorSnapshots(snapped);
    for (const p of PATHS) s.first(p, snapshots.resolver);
    // Four anchors: without the snapshot each path asked them again.
    expect(plain.calls.length).toBeGreaterThan(8);
    expect(snapped.calls.filter((c) => c === "/home/u/.ssh")).toHaveLength(1);
    expect(snapped.calls.filter((c) => c === "/etc")).toHaveLength(1);
    // The next call asks again: a link may have moved in between.
    snapshots.nextCall();
    s.first(PATHS[0] as string, snapshots.resolver);
    expect(snapped.calls.filter((c) => c === "/home/u/.ssh")).toHaveLength(2);
  });

  it("gives the first pattern the resolver itself gives, through a linked anchor too", () => {
    const s = set(BODIES);
    const resolver = fakeResolver({ "/home/u/.aws": "/keys" });
    const snapshot = anchorSnapshots(resolver).resolver;
    expect(s.first("/keys/credentials", snapshot)?.body).toBe("~/.aws/**");
    for (const p of PATHS) expect(s.first(p, snapshot)?.body).toBe(s.first(p, resolver)?.body);
  });

  it("keeps absent the questions the resolver cannot answer, and passes the others on", () => {
    const bare = anchorSnapshots({ realpath: () => undefined }).resolver;
    expect(bare.exists).toBeUndefined();
    expect(bare.hasOtherNames).toBeUndefined();
    expect(bare.anchorRealpath).toBeUndefined();
    const { resolver: full } = anchorSnapshots({
      realpath: (p) => `${p}!`,
      anchorRealpath: (p) => `${p}@`,
      exists: (p) => p === "/x",
      fileId: (p) => `id:${p}`,
    });
    expect(full.realpath("/a")).toBe("/a!");
    expect(full.anchorRealpath?.("/a")).toBe("/a@");
    expect(full.exists?.("/x")).toBe(true);
    expect(full.fileId?.("/y")).toBe("id:/y");
    // Moved anchors come from anchorRealpath when the resolver has it.
    expect(full.movedAnchors?.(["/a", "/b"])).toEqual([0, 1]);
  });
});
