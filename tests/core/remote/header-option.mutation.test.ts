// Edges of --header and --header-env that the main tests leave open (found by Stryker: every
// header the bridge owns, the exact refusals, and the whole of --header-env, which only the relay
// reached before).
import { describe, expect, it } from "vitest";
import {
  loggableHeaderOption,
  parseHeaderEnvOption,
  parseHeaderOption,
} from "../../../src/core/remote/header-option.js";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

describe("--header refusals", () => {
  it.each([
    "Accept",
    "Connection",
    "Content-Length",
    "Content-Type",
    "Host",
    "Last-Event-ID",
    "Mcp-Method",
    "Mcp-Name",
    "MCP-Protocol-Version",
    "Mcp-Session-Id",
    "Transfer-Encoding",
  ])("leaves %s to the bridge, whatever its case", (name) => {
    expect(parseHeaderOption(`${name}: v`, env({}))).toEqual({
      ok: false,
      error: `--header: ${name} is set by effectgate from the session and the message; expected another header`,
    });
  });

  it("says what it expected when there is no name before a colon", () => {
    // A word that would be a fine header name if its end were taken for one.
    expect(parseHeaderOption("XApiKey", env({}))).toEqual({
      ok: false,
      error: '--header: expected "Name: value", got "XApiKey"',
    });
    expect(parseHeaderOption(": value", env({}))).toEqual({
      ok: false,
      error: '--header: expected "Name: value", got ": value"',
    });
  });

  it("names the bad header name", () => {
    expect(parseHeaderOption("X(y): z", env({}))).toEqual({
      ok: false,
      error: '--header: expected a header name of letters, digits and !#$%&\'*+-.^_`|~, got "X(y)"',
    });
  });

  it("trims the name as well as the value", () => {
    expect(parseHeaderOption("  X-Key :v", env({}))).toEqual({
      ok: true,
      header: { name: "X-Key", value: "v", fromEnv: [] },
    });
  });
});

describe("--header as logged", () => {
  it("treats an option with no name as unreadable", () => {
    expect(loggableHeaderOption(": Bearer ${TOKEN}")).toBe("(unreadable --header)");
  });

  it("names only the variables of the value, each once per use, and a trimmed name", () => {
    expect(loggableHeaderOption(" X-${NAME} : ${A}${B}")).toBe(
      "X-${NAME}: (value not logged, built from $A, $B)",
    );
  });
});

describe("--header-env", () => {
  it("takes the whole value from the variable, trimmed, and names it", () => {
    expect(parseHeaderEnvOption("X-Api-Key=API_KEY", env({ API_KEY: " sk-1 " }))).toEqual({
      ok: true,
      header: { name: "X-Api-Key", value: "sk-1", fromEnv: ["API_KEY"] },
    });
  });

  it("trims around the name and the variable", () => {
    expect(parseHeaderEnvOption(" X-Api-Key = _KEY2 ", env({ _KEY2: "v" }))).toEqual({
      ok: true,
      header: { name: "X-Api-Key", value: "v", fromEnv: ["_KEY2"] },
    });
  });

  it("takes a value as it is: no ${…} expansion inside it", () => {
    const r = parseHeaderEnvOption("X-Key=K", env({ K: "${OTHER}", OTHER: "no" }));
    expect(r.ok && r.header.value).toBe("${OTHER}");
  });

  it.each([
    "=KEY",
    " =KEY",
    "X-Key",
    "X-Key=",
    "X-Key=1KEY",
    "X-Key=KEY-2",
    "X-Key=A B",
    "X-Key=$KEY",
    "X-Key=KEY!",
  ])("refuses %j as not Name=VARIABLE", (text) => {
    expect(parseHeaderEnvOption(text, env({ KEY: "v", "1KEY": "v", A: "v" }))).toEqual({
      ok: false,
      error: `--header-env: expected "Name=VARIABLE", got ${JSON.stringify(text)}`,
    });
  });

  it("refuses a bad or owned name with --header's reason, under its own option name", () => {
    expect(parseHeaderEnvOption("X Y=KEY", env({ KEY: "v" }))).toEqual({
      ok: false,
      error: '--header-env: expected a header name of letters, digits and !#$%&\'*+-.^_`|~, got "X Y"',
    });
    expect(parseHeaderEnvOption("Host=KEY", env({ KEY: "v" }))).toEqual({
      ok: false,
      error:
        "--header-env: Host is set by effectgate from the session and the message; expected another header",
    });
  });

  it("says which variable is unset", () => {
    expect(parseHeaderEnvOption("X-Key=KEY", env({}))).toEqual({
      ok: false,
      error: "--header-env X-Key: expected the environment variable KEY to be set, got nothing",
    });
  });

  it.each(["a\nb", "a\rb", "a\0b"])("refuses a value that would end the header: %j", (value) => {
    expect(parseHeaderEnvOption("X-Key=KEY", env({ KEY: value }))).toEqual({
      ok: false,
      error: "--header-env X-Key: expected a value on one line, got a line break or NUL",
    });
  });

  it("takes an empty variable as an empty value", () => {
    expect(parseHeaderEnvOption("X-Key=KEY", env({ KEY: "" }))).toEqual({
      ok: true,
      header: { name: "X-Key", value: "", fromEnv: ["KEY"] },
    });
  });
});
