// The rules every command's words follow, on a declaration made for the test: values, lists,
// the server command after --, and how each kind of mistake is said.
import { describe, expect, it } from "vitest";
import type { CommandDeclaration, Parsed } from "../../../src/commands/cli/declaration.js";
import { parseCommand } from "../../../src/commands/cli/parse.js";
import { UsageError } from "../../../src/core/errors.js";

const base: CommandDeclaration = {
  description: "a command for the test",
  options: [
    { flags: "--dry-run", meaning: "m", default: "off" },
    { flags: "--name <name>", meaning: "m", default: "none" },
    { flags: "--client <names>", meaning: "m", default: "all", repeatable: true },
    { flags: "--exclude <id...>", meaning: "m", default: "none" },
    {
      flags: "--count <n>",
      meaning: "m",
      default: "3",
      value: 3,
      parse: (text) => {
        if (!/^\d+$/.test(text)) throw new UsageError(`expected a whole number, got ${JSON.stringify(text)}`);
        return Number(text);
      },
    },
  ],
  operands: [{ name: "[file]", meaning: "m", default: "none" }],
  examples: [],
  run: async () => 0,
};
const server: CommandDeclaration = {
  ...base,
  operands: [],
  serverCommand: { example: "effectgate t -- srv" },
};

const parse = (decl: CommandDeclaration, args: string[]) => parseCommand("t", decl, args) as Parsed;
const usage = (decl: CommandDeclaration, args: string[]): string => {
  try {
    parseCommand("t", decl, args);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).command).toBe("t");
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${JSON.stringify(args)}`);
};

describe("option values", () => {
  it("reads flags, --x v and --x=v, with defaults for what is not given", () => {
    expect(parse(base, []).options).toEqual({ dryRun: false, client: [], exclude: [], count: 3 });
    expect(parse(base, ["--dry-run", "--name=a b", "--count", "7", "f.txt"])).toEqual({
      words: ["--dry-run", "--name=a b", "--count", "7", "f.txt"],
      options: { dryRun: true, name: "a b", client: [], exclude: [], count: 7 },
      operands: ["f.txt"],
      server: [],
    });
  });

  it("keeps every value of a repeatable or variadic option in order; otherwise the last wins", () => {
    const o = parse(base, [
      "--client",
      "a,b",
      "--client=c",
      "--exclude",
      "x",
      "y",
      "--exclude",
      "z",
      "--name",
      "1",
      "--name",
      "2",
    ]);
    expect(o.options).toMatchObject({ client: ["a,b", "c"], exclude: ["x", "y", "z"], name: "2" });
    // A fresh parse starts its lists empty again.
    expect(parse(base, ["--client", "d"]).options.client).toEqual(["d"]);
  });

  it("refuses an empty value, a lone --, and one of its own options as a value", () => {
    expect(usage(base, ["--name", ""])).toBe("--name: expected a value, got an empty one");
    expect(usage(base, ["--name="])).toBe("--name: expected a value, got an empty one");
    expect(usage(base, ["--name=--"])).toBe('--name: expected a value, got "--"');
    expect(usage(base, ["--name", "--dry-run"])).toBe('--name: expected a value, got the option "--dry-run"');
    expect(usage(base, ["--name", "--count=2"])).toBe('--name: expected a value, got the option "--count=2"');
    expect(usage(base, ["--exclude", "-h"])).toBe('--exclude: expected a value, got the option "-h"');
    // Anything else is a value, even when it starts with dashes.
    expect(parse(base, ["--name", "--other"]).options.name).toBe("--other");
  });

  it("names the flag once before the option's own expected/got", () => {
    expect(usage(base, ["--count", "many"])).toBe('--count: expected a whole number, got "many"');
    expect(usage(base, ["--count"])).toBe("--count: expected a value, got nothing");
  });
});

describe("mistakes", () => {
  it("says which option is unknown, lists the known ones and suggests a near one", () => {
    expect(usage(base, ["--nmae", "x"])).toBe(
      'unknown option "--nmae"; expected one of --dry-run, --name, --client, --exclude, --count, --help (did you mean --name?)',
    );
    expect(usage(base, ["--zzzzzz=1"])).toBe(
      'unknown option "--zzzzzz"; expected one of --dry-run, --name, --client, --exclude, --count, --help',
    );
    expect(usage(base, ["-q"])).toMatch(/^unknown option "-q"; expected one of /);
  });

  it("says which argument is one too many", () => {
    expect(usage(base, ["a", "b"])).toBe('unexpected argument "b"; expected at most one: [file]');
    expect(usage({ ...base, operands: [] }, ["a"])).toBe(
      'unexpected argument "a"; expected options only (see --help)',
    );
  });

  it("answers help before an unknown option, and not when --help is a value", () => {
    expect(parseCommand("t", base, ["--bogus", "--help"])).toBe("help");
    expect(parseCommand("t", base, ["-h"])).toBe("help");
    expect(usage(base, ["--name", "--help"])).toBe('--name: expected a value, got the option "--help"');
  });
});

describe("a server command after --", () => {
  it("keeps the words after the first -- verbatim, options of ours included", () => {
    const p = parse(server, ["--name", "fs", "--", "npx", "--name", "x", "--", "-h", ""]);
    expect(p.options.name).toBe("fs");
    expect(p.server).toEqual(["npx", "--name", "x", "--", "-h", ""]);
  });

  it("requires the -- and a command after it", () => {
    expect(usage(server, ["--name", "fs"])).toBe(
      "expected -- followed by the server command, e.g. effectgate t -- srv",
    );
    expect(usage(server, ["--"])).toBe("expected a server command after --, got nothing");
    expect(usage(server, ["--", ""])).toBe("expected a server command after --, got nothing");
    expect(usage(server, ["--name", "--", "x"])).toBe("--name: expected a value, got nothing");
    expect(usage(server, ["npx", "--", "x"])).toBe(
      'unexpected "npx"; expected options before -- CMD [ARGS...] (the server command goes after --)',
    );
    expect(usage(server, ["--bogus", "--", "x"])).toMatch(
      /^unknown option "--bogus"; expected one of .* before -- CMD \[ARGS\.\.\.\]$/,
    );
  });
});
