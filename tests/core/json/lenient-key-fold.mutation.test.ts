// Cases the mutation run of src/core/json found untested in key folding and the Python reading.
import { describe, expect, it } from "vitest";
import { foldKey } from "../../../src/core/json/key-fold.js";
import { parsePythonJson } from "../../../src/core/json/lenient-json.js";

describe("foldKey on names with no ASCII character", () => {
  it("folds them by code point, not by lower-casing alone", () => {
    // U+212A KELVIN SIGN lower-cases to itself under some readings but folds to `k`; U+017F to `s`.
    expect(foldKey("\u212a")).toBe("k");
    expect(foldKey("\u017f")).toBe("s");
    expect(foldKey("\u017f\u212a")).toBe("sk");
  });
});

describe("parsePythonJson", () => {
  it("gives nothing for text without any of the words, even when JSON.parse reads it", () => {
    // Such text is JSON.parse's to judge; this reading only adds what the words change.
    expect(parsePythonJson('{"a":1,"b":[-2,"N"]}')).toBeUndefined();
  });

  it("passes over a minus or capital that starts no word", () => {
    expect(parsePythonJson('{"a":-1,"b":NaN,"c":[-Infinity,-3]}')).toEqual({
      a: -1,
      b: NaN,
      c: [-Infinity, -3],
    });
  });
});
