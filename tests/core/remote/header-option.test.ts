import { describe, expect, it } from "vitest";
import { loggableHeaderOption, parseHeaderOption } from "../../../src/core/remote/header-option.js";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

describe("--header", () => {
  it("reads a name and a trimmed value", () => {
    expect(parseHeaderOption("X-Api-Key:  abc ", env({}))).toEqual({
      ok: true,
      header: { name: "X-Api-Key", value: "abc", fromEnv: [] },
    });
  });

  it("fills ${VAR} from the environment and names the variables", () => {
    const r = parseHeaderOption("Authorization: Bearer ${TOKEN}-${TOKEN}", env({ TOKEN: "t0k" }));
    expect(r).toEqual({
      ok: true,
      header: { name: "Authorization", value: "Bearer t0k-t0k", fromEnv: ["TOKEN"] },
    });
  });

  it("says which variable is unset", () => {
    const r = parseHeaderOption("Authorization: Bearer ${MISSING}", env({}));
    expect(r).toEqual({
      ok: false,
      error: "--header Authorization: expected the environment variable MISSING to be set, got nothing",
    });
  });

  it("refuses a value that would end the header (a line break from a variable)", () => {
    const r = parseHeaderOption("X-Key: ${K}", env({ K: "a\r\nX-Admin: yes" }));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/expected a value on one line/);
  });

  it.each([["no colon"], [": value"], ["bad name: x"], ["X(y): z"]])("refuses %j", (text) => {
    expect(parseHeaderOption(text, env({})).ok).toBe(false);
  });

  it.each([
    ["Mcp-Session-Id: x"],
    ["mcp-protocol-version: 1"],
    ["Mcp-Param-Region: eu"],
    ["Content-Type: a"],
    ["Host: h"],
  ])("leaves the headers the bridge sets alone: %j", (text) => {
    const r = parseHeaderOption(text, env({}));
    expect(!r.ok && r.error).toMatch(/is set by effectgate/);
  });

  it("is logged by name and source, never by value", () => {
    expect(loggableHeaderOption("Authorization: Bearer sk-live-123")).toBe(
      "Authorization: (value not logged)",
    );
    expect(loggableHeaderOption("Authorization: Bearer ${TOKEN}")).toBe(
      "Authorization: (value not logged, built from $TOKEN)",
    );
    expect(loggableHeaderOption("garbage")).toBe("(unreadable --header)");
  });
});
