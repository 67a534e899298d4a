// A session judges each call through one snapshot of which anchors moved (decision 0146): a link
// made between two calls is seen by the second, and each anchor is asked once per call.
import { describe, expect, it } from "vitest";
import type { PathResolver } from "../../../src/core/paths/api.js";
import { call, judgeOf } from "../../helpers/judge.js";

describe("anchors, one snapshot per call", () => {
  it("sees a link to ~/.ssh made after the previous call", () => {
    const links = new Map<string, string>();
    const asked: string[] = [];
    const resolver: PathResolver = {
      realpath: (p) => {
        asked.push(p);
        for (const [from, to] of links)
          if (p === from || p.startsWith(`${from}/`)) return to + p.slice(from.length);
        return p;
      },
    };
    const judge = judgeOf({ resolver });
    const write = call("write_file", { path: "/keys/authorized_keys", content: "k" });
    expect(judge.judge("tools/call", write).verdict).toBe("allow");
    // Two paths, one list of anchors: each anchor asked once in the call.
    const twice = call("read_multiple_files", { paths: ["/srv/a", "/srv/b"] });
    asked.length = 0;
    judge.judge("tools/call", twice);
    expect(asked.filter((p) => p === "/home/user/.ssh/id_rsa")).toHaveLength(1);
    links.set("/home/user/.ssh", "/keys");
    const d = judge.judge("tools/call", write);
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny ~/.ssh/**");
  });
});
