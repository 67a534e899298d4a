// A config that does not parse is reported with the place of the problem.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/clients/parse.js";

describe("parse errors", () => {
  it("name the line and column", () => {
    expect(parseConfig('{\n  "a": 1\n  "b": 2\n}\n', "json")).toEqual({
      ok: false,
      error: "not valid JSON (Expected ',' or '}' after property value in JSON at line 3:3)",
    });
    expect(parseConfig('{\n  "a": }', "json")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^line 2:8: /),
    });
    expect(parseConfig("[x]\na = 1\nb = \n", "toml")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^line 3:5: /),
    });
  });
});
