// One grant of a project's allow file, as the grant-file tests build it: the key fits its words
// unless a test passes a key of its own.
import { entriesKey } from "../../src/core/gate/effect-key.js";
import type { NewProjectGrant } from "../../src/core/gate/project-grants.js";

export const GRANT_ROOT = "/home/u/proj";
export const GRANT_FILE = "/home/u/proj/.effectgate/allow.yaml";

export function grant(over: Partial<NewProjectGrant> = {}): NewProjectGrant {
  const g = {
    tool: "write_file",
    server: "fs",
    method: "tools/call",
    effects: [{ verb: "write", target: "/home/u/proj/package.json" }],
    root: GRANT_ROOT,
    granted: "2026-12-02T14:00:00.000Z",
    by: "alice, in the chat",
    ...over,
  };
  return { key: entriesKey({ ...g, entries: g.effects }), ...g, ...(over.key ? { key: over.key } : {}) };
}
