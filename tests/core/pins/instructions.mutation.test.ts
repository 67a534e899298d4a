// The guard behind the run-time check of server instructions (issue 17), shared with approve --diff.
import { describe, expect, it } from "vitest";
import { instructionsFinding } from "../../../src/core/pins/instructions.js";

describe("instructionsFinding", () => {
  it("is nothing when they match, none and none included", () => {
    expect(instructionsFinding("a", "a")).toBeUndefined();
    expect(instructionsFinding(undefined, undefined)).toBeUndefined();
    // null is how a server may spell none; approve reads it so.
    expect(instructionsFinding(undefined, null)).toBeUndefined();
  });

  it("names an addition, a change and a removal, with their weight", () => {
    expect(instructionsFinding(undefined, "b")).toEqual({
      text: "server instructions added",
      severity: "high",
      was: null,
      now: "b",
    });
    expect(instructionsFinding("a", "b")).toEqual({
      text: "server instructions changed",
      severity: "high",
      was: "a",
      now: "b",
    });
    expect(instructionsFinding("a", undefined)).toEqual({
      text: "server instructions removed",
      severity: "low",
      was: "a",
      now: null,
    });
    expect(instructionsFinding("a", null)).toMatchObject({ text: "server instructions removed" });
  });

  it("cannot check what is not text", () => {
    expect(instructionsFinding("a", { text: "a" })).toEqual({
      text: "server instructions cannot be checked: expected a string, got a mapping",
      severity: "high",
    });
    expect(instructionsFinding(undefined, 3)).toMatchObject({ severity: "high" });
  });
});
