// The project grant file (decision 0134): read with the line of every problem, an entry's key
// bound to its readable words, another root's entries set apart, and new entries appended
// with every existing byte kept.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import {
  GRANT_FILE_HEAD,
  readProjectGrants,
  renderGrantEntry,
  withGrant,
  type NewProjectGrant,
} from "../../../src/core/gate/project-grants.js";
import { grant, GRANT_FILE, GRANT_ROOT } from "../../helpers/project-grant.js";

const ROOT = GRANT_ROOT;
const FILE = GRANT_FILE;

/** The problems of a file that must not load, as printed. */
function problems(text: string): string[] {
  try {
    readProjectGrants(text, FILE, ROOT);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message.split("\n");
  }
  throw new Error("the file loaded");
}

describe("readProjectGrants", () => {
  it("reads what renderGrantEntry wrote, with the line of each entry", () => {
    const text = withGrant(withGrant(undefined, grant(), FILE), grant({ tool: "edit_file" }), FILE);
    const r = readProjectGrants(text, FILE, ROOT);
    expect(r.grants.map((g) => [g.tool, g.line])).toEqual([
      ["write_file", 6],
      ["edit_file", 15],
    ]);
    expect(text.split("\n")[5]).toBe('  - tool: "write_file"');
    expect(r.grants[0]?.effects).toEqual([{ verb: "write", target: "/home/u/proj/package.json" }]);
    expect(r.otherRoot).toEqual([]);
  });

  it("sets apart an entry of another project root", () => {
    const text = withGrant(undefined, grant({ root: "/elsewhere" }), FILE);
    const r = readProjectGrants(text, FILE, ROOT);
    expect(r.grants).toEqual([]);
    expect(r.otherRoot.map((g) => [g.root, g.line])).toEqual([["/elsewhere", 6]]);
  });

  it("reads `grants:` with nothing under it as no grants", () => {
    expect(readProjectGrants(GRANT_FILE_HEAD, FILE, ROOT).grants).toEqual([]);
  });

  it.each<[string, string, string]>([
    ["not YAML", "version: 1\ngrants:\n  - tool: [\n", `${FILE}:4:`],
    ["no version", "grants:\n", `${FILE}:1: version: expected 1, got nothing`],
    ["version 2", "version: 2\ngrants:\n", `${FILE}:1: version: expected 1, got number 2`],
    [
      "an unknown top key",
      "version: 1\ngrant:\n",
      `${FILE}:2: grant: expected one of version, grants, got an unknown key`,
    ],
    [
      "an empty file",
      "",
      `${FILE}:1: (document): expected a mapping with version: 1 and grants:, got an empty document`,
    ],
  ])("refuses %s, naming the line", (_what, text, line) => {
    expect(problems(text)).toContainEqual(expect.stringContaining(line));
  });

  // Lines of the entry in a file written by withGrant: tool 6, server 7, method 8, effects 9,
  // its item 10, root 11, key 12, granted 13, by 14.
  it.each<[string, (t: string) => string, string]>([
    [
      "a missing tool",
      (t) => t.replace(/ {2}- tool: "write_file"\n {4}server/, "  - server"),
      ":6: grants[0].tool: expected a non-empty string, got nothing",
    ],
    [
      "an unknown entry key",
      (t) => t.replace("    by:", "    who: x\n    by:"),
      ":14: grants[0].who: expected one of tool",
    ],
    [
      "a key that is not hex",
      (t) => t.replace(/key: "[0-9a-f]+"/, 'key: "nope"'),
      ":12: grants[0].key: expected 64 hex digits",
    ],
    [
      "a bad time",
      (t) => t.replace(/granted: ".*"/, 'granted: "yesterday"'),
      ":13: grants[0].granted: expected a time",
    ],
    [
      "an effect without a target",
      (t) => t.replace(/- "write .*"/, '- "write"'),
      ':10: grants[0].effects[0]: expected an effect as "verb target"',
    ],
    [
      "a number for a tool",
      (t) => t.replace('tool: "write_file"', "tool: 7"),
      ":6: grants[0].tool: expected a non-empty string, got number 7",
    ],
  ])("refuses %s in an entry, naming its line", (_what, edit, part) => {
    const text = edit(withGrant(undefined, grant(), FILE));
    expect(problems(text).join("\n")).toContain(part);
  });

  it("refuses an entry whose words were edited to another path: its key no longer fits", () => {
    const text = withGrant(undefined, grant(), FILE).replace("package.json", "package.jsoN");
    const [line] = problems(text);
    expect(line).toMatch(
      new RegExp(
        `^${FILE}:12: grants\\[0\\]\\.key: expected the key of this entry's server, method, tool and effects \\([0-9a-f]{64}\\), got [0-9a-f]{64}$`,
      ),
    );
  });

  it("refuses a duplicate key in an entry", () => {
    const text = withGrant(undefined, grant(), FILE).replace("    by:", '    tool: "x"\n    by:');
    expect(problems(text).join("\n")).toContain(`${FILE}:14:`);
  });
});

describe("keys match one exact effect", () => {
  const k = grant().key;
  it.each<[string, Partial<NewProjectGrant>]>([
    ["one character of the path", { effects: [{ verb: "write", target: "/home/u/proj/package.jso" }] }],
    ["the verb", { effects: [{ verb: "read", target: "/home/u/proj/package.json" }] }],
    ["the tool", { tool: "write_files" }],
    ["the server", { server: "fs2" }],
    ["the method", { method: "prompts/get" }],
    ["one more effect", { effects: [...grant().effects, { verb: "run", target: "git push" }] }],
  ])("another %s is another key", (_what, over) => {
    expect(grant(over).key).not.toBe(k);
  });

  it("the same effects in another order are the same key", () => {
    const two = [
      { verb: "write", target: "/a" },
      { verb: "run", target: "make" },
    ];
    expect(grant({ effects: two }).key).toBe(grant({ effects: [...two].reverse() }).key);
  });
});

describe("withGrant", () => {
  it("keeps every existing byte, comments included, and adds the entry last", () => {
    const first = withGrant(undefined, grant(), FILE).replace(
      "version: 1",
      "# reviewed by bob\nversion: 1 # yes",
    );
    const next = withGrant(first, grant({ tool: "edit_file" }), FILE);
    expect(next.startsWith(first)).toBe(true);
    expect(next.slice(first.length)).toBe(renderGrantEntry(grant({ tool: "edit_file" })));
  });

  it("adds to a file without a final newline", () => {
    const first = withGrant(undefined, grant(), FILE).trimEnd();
    const next = withGrant(first, grant({ tool: "edit_file" }), FILE);
    expect(readProjectGrants(next, FILE, ROOT).grants.map((g) => g.tool)).toEqual([
      "write_file",
      "edit_file",
    ]);
  });

  it("refuses a file whose grants list is not last (the entry would land elsewhere)", () => {
    const text = "version: 1\ngrants: []\n";
    expect(() => withGrant(text, grant(), FILE)).toThrow(ConfigError);
    const later = `grants:\n${renderGrantEntry(grant())}version: 1\n`;
    expect(() => withGrant(later, grant({ tool: "edit_file" }), FILE)).toThrow(/cannot add an entry/);
  });

  it("writes hidden characters escaped and reads them back exactly", () => {
    const target = "/home/u/proj/a\u202eb\u200bc\u{e0041}d\u0007é.txt";
    const g = grant({ effects: [{ verb: "write", target }] });
    const text = withGrant(undefined, g, FILE);
    for (const ch of ["\u202e", "\u200b", "\u0007", "\u{e0041}"]) expect(text).not.toContain(ch);
    expect(text).toContain("é");
    expect(text).toContain("\\u202e");
    expect(text).toContain("\\U000e0041");
    expect(readProjectGrants(text, FILE, ROOT).grants[0]?.effects[0]?.target).toBe(target);
  });

  it("writes a target with quotes and a newline so that it reads back as one effect", () => {
    const target = '/p/x"\n  - tool: "evil';
    const text = withGrant(undefined, grant({ effects: [{ verb: "write", target }] }), FILE);
    const r = readProjectGrants(text, FILE, ROOT);
    expect(r.grants).toHaveLength(1);
    expect(r.grants[0]?.effects).toEqual([{ verb: "write", target }]);
  });
});
