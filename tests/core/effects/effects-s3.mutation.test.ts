// Mover operands of command lines whose parts hold no program at all: a part that is only
// wrappers and assignments, or the empty part after a trailing separator.
import { describe, expect, it } from "vitest";
import { moverOperands } from "../../../src/core/effects/containers.js";

describe("mover operands without a program", () => {
  it("finds none in a part made only of wrappers or assignments", () => {
    expect(moverOperands("sudo")).toEqual([]);
    expect(moverOperands("env FOO=1 nohup")).toEqual([]);
    expect(moverOperands("")).toEqual([]);
  });

  it("keeps the operands before a trailing or doubled separator", () => {
    expect(moverOperands("mv a b;")).toEqual(["a", "b"]);
    expect(moverOperands("cp x y && sudo")).toEqual(["x", "y"]);
  });
});
