import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRelayArgs } from "../../src/commands/relay.js";
import { sessionDir } from "../../src/commands/relay-args.js";
import { UsageError } from "../../src/core/errors.js";

describe("relay command line", () => {
  it("reads options before -- and keeps the server argv verbatim", () => {
    expect(
      parseRelayArgs([
        "--level",
        "strict",
        "--name=fs",
        "--log-dir",
        "/l",
        "--",
        "npx",
        "-y",
        "--level",
        "x",
      ]),
    ).toEqual({
      level: "strict",
      name: "fs",
      logDir: "/l",
      server: ["npx", "-y", "--level", "x"],
    });
  });

  it("rejects bad words with a usage error that says what was expected", () => {
    expect(() => parseRelayArgs(["--level", "loud", "--", "x"])).toThrow(
      /--level: expected observe, enforce or strict, got "loud"/,
    );
    expect(() => parseRelayArgs(["--bogus", "--", "x"])).toThrow(UsageError);
    expect(() => parseRelayArgs(["--policy"])).toThrow(/expected a value/);
    expect(() => parseRelayArgs(["--level", "observe"])).toThrow(
      /expected -- followed by the server command/,
    );
    expect(() => parseRelayArgs(["--"])).toThrow(/expected a server command after --/);
  });

  it("puts session logs in --log-dir, else $EFFECTGATE_HOME/sessions", () => {
    expect(sessionDir("/x", { EFFECTGATE_HOME: "/h" })).toBe("/x");
    expect(sessionDir(undefined, { EFFECTGATE_HOME: "/h" })).toBe(join("/h", "sessions"));
  });
});
