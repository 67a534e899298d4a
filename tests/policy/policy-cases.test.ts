import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import type { JudgeContext } from "../../src/core/gate/gate.js";
import { createSessionJudge } from "../../src/core/judge/session.js";
import { LEXICAL_ONLY } from "../../src/core/paths/canonical.js";
import type { PlatformProfile } from "../../src/core/paths/api.js";
import type { Level, Platform, Verdict } from "../../src/core/types.js";
import { createPolicyGate } from "../../src/relay/gates/policy-gate.js";
import { DEFAULT_POLICY_PATH } from "../../src/config/default-policy.js";
import { readPolicy } from "../../src/config/policy-file.js";

const Case = z.strictObject({
  name: z.string(),
  method: z.enum(["tools/call", "prompts/get", "resources/read"]).optional(),
  tool: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  params: z.unknown().optional(),
  tainted: z.boolean().optional(),
  problem: z.string().optional(),
  platform: z.enum(["linux", "darwin", "win32"]).optional(),
  /** A rule this case exercises although an earlier rule gets the attribution. */
  covers: z.string().optional(),
  expect: z.strictObject({ verdict: z.enum(["allow", "confirm", "deny"]), rule: z.string().optional(), unjudgeable: z.boolean().optional() }),
});
type Case = z.infer<typeof Case>;

const cases: Case[] = z.array(Case).parse(parse(readFileSync(join(import.meta.dirname, "policy-cases.yaml"), "utf8")));

const PROFILES: Record<Platform, PlatformProfile> = {
  linux: { platform: "linux", home: "/home/user", env: { HOME: "/home/user" }, cwd: "/home/user/work" },
  darwin: { platform: "darwin", home: "/Users/user", env: { HOME: "/Users/user" }, cwd: "/Users/user/work" },
  win32: {
    platform: "win32",
    home: "C:\\Users\\user",
    env: { USERPROFILE: "C:\\Users\\user", APPDATA: "C:\\Users\\user\\AppData\\Roaming" },
    cwd: "C:\\Users\\user\\work",
  },
};
const policies = new Map<Platform, ReturnType<typeof readPolicy>>();
const policyFor = (p: Platform) => policies.get(p) ?? policies.set(p, readPolicy("default", PROFILES[p])).get(p)!;

/** What the gate must do with each verdict at each level when the client cannot be asked. */
const ACTION: Record<Verdict, Record<Level, "forward" | "refuse">> = {
  allow: { observe: "forward", enforce: "forward", strict: "forward" },
  confirm: { observe: "forward", enforce: "forward", strict: "refuse" },
  deny: { observe: "forward", enforce: "refuse", strict: "refuse" },
};

function paramsOf(c: Case): unknown {
  if (c.params !== undefined) return c.params;
  return { name: c.tool, arguments: c.args ?? {} };
}

const ctx: JudgeContext = { record: () => undefined, announce: () => undefined };

describe("golden policy cases (policy/default.yaml)", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const platform = c.platform ?? "linux";
    const policy = policyFor(platform);
    const env = { profile: PROFILES[platform], resolver: LEXICAL_ONLY };
    const method = c.method ?? "tools/call";
    const judge = createSessionJudge(policy, env, { tainted: c.tainted ?? false });
    const d = judge.judge(method, paramsOf(c), c.problem);
    expect({ verdict: d.verdict, rule: d.rule, reason: d.reason }).toMatchObject({ verdict: c.expect.verdict, ...(c.expect.rule ? { rule: c.expect.rule } : {}) });
    expect(d.unjudgeable !== undefined, d.unjudgeable ?? "judged").toBe(c.expect.unjudgeable === true);
    for (const level of ["observe", "enforce", "strict"] as const) {
      const gate = createPolicyGate({ judge: createSessionJudge(policy, env, { tainted: c.tainted ?? false }), level, policySource: "default" });
      const answer = await gate.judge({ method, id: 1, params: paramsOf(c), modern: false, ...(c.problem ? { problem: c.problem } : {}) }, ctx);
      expect(answer.action, level).toBe(ACTION[c.expect.verdict][level]);
    }
  });

  it("has a case for every path rule and exec glob of the default policy", () => {
    const doc = parse(readFileSync(DEFAULT_POLICY_PATH, "utf8")) as { paths: Record<string, string[]>; exec: { tools: string[] } };
    const expected = new Set(cases.flatMap((c) => [c.expect.rule, c.covers]).filter((r) => r !== undefined));
    const missing: string[] = [];
    for (const [list, patterns] of Object.entries(doc.paths)) for (const p of patterns) if (!expected.has(`paths.${list} ${p}`)) missing.push(`paths.${list} ${p}`);
    for (const g of doc.exec.tools) if (!expected.has(`exec ${g}`)) missing.push(`exec ${g}`);
    expect(missing).toEqual([]);
  });

  it("taint from a source response turns a confirm_if_tainted write into confirm and exec into deny", () => {
    const judge = createSessionJudge(policyFor("linux"), { profile: PROFILES.linux, resolver: LEXICAL_ONLY });
    const make = { name: "write_file", arguments: { path: "Makefile" } };
    const exec = { name: "run_command", arguments: { command: "make" } };
    expect(judge.judge("tools/call", make).verdict).toBe("allow");
    expect(judge.judge("tools/call", exec).verdict).toBe("confirm");
    const events = judge.observe({ method: "tools/call", params: { name: "fetch", arguments: { url: "https://example.com" } } }, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hello" }] } });
    expect(events.map((e) => e.reason)).toEqual(["source", "url"]);
    expect(judge.judge("tools/call", make)).toMatchObject({ verdict: "confirm", rule: "paths.confirm_if_tainted **/Makefile", tainted: true });
    expect(judge.judge("tools/call", exec)).toMatchObject({ verdict: "deny", rule: "exec *command*" });
  });

  it("refuses a call over the budget, and finds a denied path after 10,000 harmless strings", () => {
    const judge = createSessionJudge(policyFor("linux"), { profile: PROFILES.linux, resolver: LEXICAL_ONLY });
    const harmless = Array.from({ length: 10_000 }, (_, i) => `src/file-${i}.ts`);
    const late = judge.judge("tools/call", { name: "write_many", arguments: { paths: [...harmless, "~/.ssh/authorized_keys"] } });
    expect(late).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
    const huge = judge.judge("tools/call", { name: "write_many", arguments: { paths: [...harmless, ...harmless.map((h) => `${h}x`), ...Array.from({ length: 40_000 }, (_, i) => `more-${i}`)] } });
    expect(huge.verdict).toBe("deny");
    expect(huge.unjudgeable).toMatch(/too large to judge/);
  });
});
