// The refusal's result shape when the refused request had no params or non-object params.
import { describe, expect, it } from "vitest";
import { refusalMessage } from "../../../src/core/gate/refusal-frame.js";

describe("refusalMessage for resources/read", () => {
  it("names the fallback URI when the request had no params, or params that are not an object", () => {
    for (const params of [undefined, null, "file:///x", 7]) {
      const m = refusalMessage({ id: 1, text: "refused", modern: false, method: "resources/read", params });
      expect(m.result).toEqual({
        contents: [{ uri: "effectgate:refused", mimeType: "text/plain", text: "refused" }],
        isError: true,
      });
    }
  });
});
