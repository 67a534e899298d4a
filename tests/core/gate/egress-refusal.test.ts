// A refused egress names where the data would have gone and what kind of secret, never the value.
import { describe, expect, it } from "vitest";
import { refusalText } from "../../../src/core/gate/refusal-text.js";
import { call, judgeOf } from "../../helpers/judge.js";
import { readPolicy } from "../../../src/config/policy-file.js";
import { createSessionJudge } from "../../../src/core/judge/session.js";
import { LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";
import { PROFILE } from "../../helpers/judge.js";
import { checksumToken } from "../../helpers/secrets.js";

const judge = () =>
  createSessionJudge(readPolicy("default", PROFILE), { profile: PROFILE, resolver: LEXICAL_ONLY });

function refusal(name: string, args: Record<string, unknown>, j = judge()): string {
  const params = call(name, args);
  const decision = j.judge("tools/call", params);
  return refusalText({
    kind: "deny",
    tool: name,
    method: "tools/call",
    params,
    decision,
    level: "enforce",
    policySource: "default",
  });
}

describe("refusals of egress", () => {
  it("a metadata fetch names the host, its class and the rule", () => {
    const text = refusal("fetch", { url: "http://0251.0376.0251.0376/latest/meta-data/" });
    expect(text.split("\n")[0]).toBe(
      'effectgate refused this call to "fetch": fetch would send a request to 169.254.169.254 (a cloud metadata service: it hands this machine\'s credentials to any caller), which matches egress.deny_hosts <metadata>.',
    );
    expect(text.split("\n")[1]).toMatch(
      /^Target: sending to 169\.254\.169\.254\. Rule: egress\.deny_hosts <metadata>\./,
    );
  });

  it("a secret names its kind and the recipient, and the value is only in the pasteable check line", () => {
    const token = checksumToken("ghp_");
    const text = refusal("send_message", { recipient: "+13241234123", message: `use ${token}` });
    const [first, second] = text.split("\n");
    expect(first).toBe(
      'effectgate refused this call to "send_message": send_message would send a GitHub token (at arguments.message) to +13241234123.',
    );
    expect(second).toMatch(/^Target: sending to \+13241234123\. Rule: egress\.secrets github-token\./);
    expect(`${first}\n${second}`).not.toContain(token.slice(4));
  });

  it("keeps the path target for path rules", () => {
    const j = judgeOf();
    const params = call("write_file", { path: "~/.ssh/authorized_keys", content: "x" });
    const decision = j.judge("tools/call", params);
    const text = refusalText({
      kind: "deny",
      tool: "write_file",
      method: "tools/call",
      params,
      decision,
      level: "enforce",
      policySource: "default",
    });
    expect(text.split("\n")[1]).toMatch(/^Target: \/home\/user\/\.ssh\/authorized_keys\./);
  });
});
