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

  it("says in its own words why each kind of no is not a yes", () => {
    const unread = { answer: "cancel", why: "the answer is not an object" };
    expect(readApproval(null)).toEqual(unread);
    expect(readApproval(undefined)).toEqual(unread);
    expect(readApproval("accept")).toEqual(unread);
    expect(readApproval({ action: "cancel" })).toEqual({
      answer: "cancel",
      why: "the user dismissed the question",
    });
    expect(readApproval({ action: "Cancel" })).toEqual({ answer: "cancel", why: "no action" });
    expect(readApproval({})).toEqual({ answer: "cancel", why: "no action" });
    const empty = { answer: "decline", why: "accepted with an empty form, which is not a yes" };
    expect(readApproval({ action: "accept" })).toEqual(empty);
    expect(readApproval({ action: "accept", content: null })).toEqual(empty);
    expect(readApproval({ action: "accept", content: "allow" })).toEqual(empty);
    expect(readApproval({ action: "accept", content: {} })).toEqual(empty);
    expect(readApproval({ action: "accept", content: { allow: false } })).toEqual({
      answer: "decline",
      why: "accepted without allow set to true, which is not a yes",
    });
  });

  it("asks with one required boolean whose default is no, and an optional choice to keep a yes", () => {
    expect(approvalForm("m")).toEqual({
      mode: "form",
      message: "m",
      requestedSchema: {
        type: "object",
        properties: {
          allow: { type: "boolean", title: "Allow this call?", default: false },
          remember: {
            type: "string",
            title: "Allow this exact effect for",
            enum: ["this call", "this session", "always in this project"],
            default: "this call",
          },
        },
        required: ["allow"],
      },
    });
  });

  it("keeps a yes for the session only when asked exactly, and never a no", () => {
    const accept = (content: Record<string, unknown>) => readApproval({ action: "accept", content });
    expect(accept({ allow: true, remember: "this session" })).toEqual({
      answer: "accept",
      remember: "session",
    });
    expect(accept({ allow: true, remember: "this call" })).toEqual({ answer: "accept" });
    expect(accept({ allow: true, remember: "forever" })).toEqual({ answer: "accept" });
    expect(accept({ allow: false, remember: "this session" }).answer).toBe("decline");
    expect(accept({ remember: "this session" }).answer).toBe("decline");
    expect(readApproval({ action: "decline", content: { allow: true, remember: "this session" } })).toEqual({
      answer: "decline",
      why: "the user declined",
    });
  });

  it("keeps a yes for the project only when asked exactly, and never a no or an empty yes", () => {
    const accept = (content: Record<string, unknown>) => readApproval({ action: "accept", content });
    expect(accept({ allow: true, remember: "always in this project" })).toEqual({
      answer: "accept",
      remember: "project",
    });
    expect(accept({ allow: true, remember: "Always in this project" })).toEqual({ answer: "accept" });
    expect(accept({ allow: true, remember: "always in this project " })).toEqual({ answer: "accept" });
    expect(accept({ allow: false, remember: "always in this project" }).answer).toBe("decline");
    expect(accept({ allow: "true", remember: "always in this project" }).answer).toBe("decline");
    expect(accept({ remember: "always in this project" }).answer).toBe("decline");
    expect(
      readApproval({ action: "cancel", content: { allow: true, remember: "always in this project" } }).answer,
    ).toBe("cancel");
  });
});
