// Only `accept` with `allow` exactly true is a yes (decision 0103).
import { describe, expect, it } from "vitest";
import { approvalForm, readApproval } from "../../../src/core/gate/approval-form.js";

describe("readApproval", () => {
  it("an explicit yes is the only yes", () => {
    expect(readApproval({ action: "accept", content: { allow: true } })).toEqual({ answer: "accept" });
  });

  it.each<[string, unknown, string]>([
    ["decline", { action: "decline" }, "decline"],
    ["cancel", { action: "cancel" }, "cancel"],
    ["no action", { content: { allow: true } }, "cancel"],
    ["an unknown action", { action: "yes", content: { allow: true } }, "cancel"],
    ["a string", "accept", "cancel"],
    ["an empty accept", { action: "accept", content: {} }, "decline"],
    ["an accept with no content", { action: "accept" }, "decline"],
    ["an unticked box", { action: "accept", content: { allow: false } }, "decline"],
    ['the string "true"', { action: "accept", content: { allow: "true" } }, "decline"],
    ["the number 1", { action: "accept", content: { allow: 1 } }, "decline"],
    ["another field only", { action: "accept", content: { ok: true } }, "decline"],
  ])("%s is a no", (_, result, answer) => {
    const a = readApproval(result);
    expect(a.answer).toBe(answer);
    expect(a.why).toBeTruthy();
  });

  it("asks with one required boolean whose default is no", () => {
    expect(approvalForm("m")).toEqual({
      mode: "form",
      message: "m",
      requestedSchema: {
        type: "object",
        properties: { allow: { type: "boolean", title: "Allow this call?", default: false } },
        required: ["allow"],
      },
    });
  });
});
