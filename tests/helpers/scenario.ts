// Shared by the in-process evaluation tests: a minimal valid attack scenario around some
// messages, and judges built on the engine tests' small policy.
import { Scenario } from "../../src/core/evaluation/scenario.js";
import { createSessionJudge } from "../../src/core/judge/session.js";
import type { JudgeEnvironment } from "../../src/core/policy/api.js";
import { policyOf, TEST_POLICY } from "./judge.js";

export type Msg = Record<string, unknown>;

export const scenario = (messages: Msg[], over: Msg = {}): Scenario =>
  Scenario.parse({
    id: "s",
    title: "a scenario",
    category: "cat",
    source: { ref: "test", what: "test" },
    platform: "linux",
    server: { name: "fs", command: ["srv"] },
    messages,
    ...over,
  });

// One compiled policy per machine: compiling is the slow part, and judges never change it.
const compiled = new Map<string, ReturnType<typeof policyOf>>();
export const makeJudge = (env: JudgeEnvironment) => {
  const key = JSON.stringify(env.profile);
  const policy = compiled.get(key) ?? policyOf(TEST_POLICY, env.profile);
  compiled.set(key, policy);
  return createSessionJudge(policy, env);
};
