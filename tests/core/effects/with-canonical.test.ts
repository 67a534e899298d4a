// withCanonical replaces `{ ...effect, canonical }` in the judge (decision 0140): the copy must
// have the same own keys in the same order, so that logged effects keep their bytes.
import { describe, expect, it } from "vitest";
import { withCanonical } from "../../../src/core/effects/with-canonical.js";
import type { Effect } from "../../../src/core/types.js";

const via = { program: "cp", command: "cp a b", does: "writes" };
const EFFECTS: Effect[] = [
  { operation: "read", kind: "path", at: "arguments.path", spelled: "src/x.ts" },
  { operation: "write", kind: "path", spelled: "b", via, at: "arguments.command" },
  { operation: "write", kind: "path", at: "a", spelled: "b", canonical: "/old", via },
];

describe("withCanonical", () => {
  it.each(EFFECTS)("copies like the spread it replaces, in the same key order", (effect) => {
    const before = JSON.stringify(effect);
    const copy = withCanonical(effect, "/srv/project/b");
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...effect, canonical: "/srv/project/b" }));
    expect(copy).not.toBe(effect);
    expect(JSON.stringify(effect)).toBe(before);
  });
});
