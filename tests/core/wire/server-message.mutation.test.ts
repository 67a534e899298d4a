// A server's own message as the judge reads it (docs/decisions/0070): its params as an answer's result.
import { describe, expect, it } from "vitest";
import { serverMessageAsAnswer } from "../../../src/core/wire/server-message.js";

describe("serverMessageAsAnswer", () => {
  it("reads the params under the method, and nothing when there are none", () => {
    const params = { level: "info", data: "x" };
    expect(serverMessageAsAnswer("notifications/message", params)).toEqual({
      request: { method: "notifications/message", params: undefined },
      response: { result: params },
    });
    expect(serverMessageAsAnswer("notifications/tools/list_changed", undefined)).toBeUndefined();
    expect(serverMessageAsAnswer("m", null)).toEqual({
      request: { method: "m", params: undefined },
      response: { result: null },
    });
  });
});
