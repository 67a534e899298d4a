// The words of `effectgate eval`, read through its declaration as the CLI reads them.
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../src/commands/cli/parse.js";
import type { Parsed } from "../../../src/commands/cli/declaration.js";
import { command } from "../../../src/commands/eval.js";
import { UsageError } from "../../../src/core/errors.js";

const options = (args: string[]): Record<string, unknown> =>
  (parseCommand("eval", command, args) as Parsed).options;

const usage = (args: string[]): string => {
  try {
    parseCommand("eval", command, args);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).command).toBe("eval");
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${JSON.stringify(args)}`);
};

describe("eval words", () => {
  it("defaults to nothing chosen", () => {
    expect(options([])).toEqual({ json: false, exclude: [], excludeFile: [] });
  });

  it("reads every option", () => {
    expect(
      options([
        "--attack",
        "a",
        "--benign",
        "b",
        "--policy",
        "p.yaml",
        "--json",
        "--min-recall",
        "0.5",
        "--max-blocks-per-week",
        "3",
        "--exclude",
        "s1",
        "s2",
        "--exclude-file",
        "x.txt",
        "--exclude-file=y.txt",
      ]),
    ).toEqual({
      json: true,
      attack: "a",
      benign: "b",
      policy: "p.yaml",
      minRecall: 0.5,
      maxBlocksPerWeek: 3,
      exclude: ["s1", "s2"],
      excludeFile: ["x.txt", "y.txt"],
    });
    expect(parseCommand("eval", command, ["--help"])).toBe("help");
    expect(parseCommand("eval", command, ["-h"])).toBe("help");
    expect(options(["--exclude", "a", "--exclude", "b"]).exclude).toEqual(["a", "b"]);
    expect(options(["--min-recall", "90%"]).minRecall).toBeCloseTo(0.9);
  });

  it("stops an --exclude list at the next option", () => {
    expect(options(["--exclude", "a", "b", "--json"])).toMatchObject({ json: true, exclude: ["a", "b"] });
  });

  it("names what was wrong, and the flag once", () => {
    expect(usage(["--min-recall"])).toBe("--min-recall: expected a value, got nothing");
    expect(usage(["--min-recall", "x"])).toBe('--min-recall: expected a non-negative number, got "x"');
    expect(usage(["--min-recall", "1.5"])).toBe(
      '--min-recall: expected a fraction from 0 to 1 (or a percentage), got "1.5"',
    );
    expect(usage(["--max-blocks-per-week", "5%"])).toBe(
      '--max-blocks-per-week: expected a non-negative number, got "5%"',
    );
    expect(usage(["--attack"])).toBe("--attack: expected a value, got nothing");
    expect(usage(["--benign", "--json"])).toBe('--benign: expected a value, got the option "--json"');
    expect(usage(["--exclude", "--json"])).toBe('--exclude: expected a value, got the option "--json"');
    expect(usage(["--exclude-file"])).toBe("--exclude-file: expected a value, got nothing");
    expect(usage(["--frob"])).toMatch(/^unknown option "--frob"; expected one of --attack, --benign, /);
    expect(usage(["--jsn"])).toMatch(/ \(did you mean --json\?\)$/);
    expect(usage(["-x"])).toMatch(/^unknown option "-x"; expected one of /);
    expect(usage(["file"])).toBe('unexpected argument "file"; expected options only (see --help)');
  });
});
