import { describe, expect, it } from "vitest";
import { answerServerRequest, PROBE_CAPABILITIES } from "../../../src/relay/process/probe-answers.js";

describe("approve's probe as a capable client with nobody at the keyboard", () => {
  it("declares roots, sampling, elicitation (form and url) and task-based requests", () => {
    expect(PROBE_CAPABILITIES).toEqual({
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
      tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
    });
  });

  it("answers what it declared as such a client would: no roots, a declined question, a refused sample", () => {
    expect(answerServerRequest("roots/list")).toEqual({ result: { roots: [] } });
    expect(answerServerRequest("elicitation/create")).toEqual({ result: { action: "decline" } });
    expect(answerServerRequest("ping")).toEqual({ result: {} });
    const sampled = answerServerRequest("sampling/createMessage");
    expect("error" in sampled && sampled.error.code).toBe(-1);
  });

  it("answers anything else with method not found, naming it", () => {
    expect(answerServerRequest("tasks/get")).toEqual({
      error: { code: -32601, message: "effectgate approve does not answer tasks/get" },
    });
  });
});
