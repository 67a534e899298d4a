// One call's judgement canonicalises each string it names once (decision 0121), and no answer
// outlives the call: the next call asks the resolver again, which may have learnt of a new link.
import { describe, expect, it } from "vitest";
import { canonicalise } from "../../../src/core/paths/canonical.js";
import { createSessionJudge } from "../../../src/core/judge/session.js";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { call, PROFILE, policyOf } from "../../helpers/judge.js";

function counted(resolver: PathResolver) {
  const asked: string[] = [];
  const judge = createSessionJudge(
    policyOf(undefined, PROFILE),
    { profile: PROFILE, resolver },
    {
      canonicalise: (input, profile, r, leaveOut) => {
        asked.push(input);
        return canonicalise(input, profile, r, leaveOut);
      },
    },
  );
  return { judge, asked };
}

describe("canonicalising once per call", () => {
  it("a path a call both writes and reads is canonicalised once", () => {
    const { judge, asked } = counted({ realpath: () => undefined });
    const edit = call("edit_file", { path: "README.md", edits: [{ oldText: "a", newText: "b" }] });
    const d = judge.judge("tools/call", edit);
    expect(d.effects.map((e) => e.operation).sort()).toEqual(["read", "write"]);
    expect(asked.filter((p) => p === "README.md")).toHaveLength(1);
    judge.judge("tools/call", edit);
    expect(asked.filter((p) => p === "README.md")).toHaveLength(2);
  });

  it("the next call sees a link that appeared after the last one", () => {
    const links = new Map<string, string>();
    const { judge } = counted({ realpath: (p) => links.get(p) });
    const write = call("write_file", { path: "notes.txt", content: "x" });
    expect(judge.judge("tools/call", write).verdict).toBe("allow");
    links.set(`${PROFILE.cwd}/notes.txt`, `${PROFILE.home}/.ssh/authorized_keys`);
    const d = judge.judge("tools/call", write);
    expect(d.verdict).toBe("deny");
    expect(d.reason).toContain("through a link");
  });
});
