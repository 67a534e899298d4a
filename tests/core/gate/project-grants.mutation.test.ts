// The words and lines of a grant file a person edited by hand, and the edges of adding to one.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import {
  GRANT_FILE_HEAD,
  readProjectGrants,
  renderGrantEntry,
  withGrant,
} from "../../../src/core/gate/project-grants.js";
import { grant, GRANT_FILE, GRANT_ROOT } from "../../helpers/project-grant.js";

const ROOT = GRANT_ROOT;
const FILE = GRANT_FILE;

/** Every line of the error a file that must not load gives. */
function problems(text: string): string[] {
  try {
    readProjectGrants(text, FILE, ROOT);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map(
      (p) => `${p.line}: ${p.key}: expected ${p.expected}, got ${p.got}`,
    );
  }
  throw new Error("the file loaded");
}

const one = withGrant(undefined, grant(), FILE);

describe("a grant file edited by hand", () => {
  it("says what each level of the file should hold", () => {
    expect(problems("- a\n")).toEqual([
      "1: (document): expected a mapping with version: 1 and grants:, got a list",
    ]);
    expect(problems("version: 1\ngrants: 5\n")).toEqual([
      "2: grants: expected a list of grants (each one `- tool: …`), got number 5",
    ]);
    expect(problems("version: 1\ngrants:\n  - 5\n")).toEqual([
      "3: grants[0]: expected a grant with tool, server, method, effects, root, key, granted, by, got number 5",
    ]);
    expect(problems(one.replace(/ {4}effects:\n {6}- .*\n/, '    effects: "write /x"\n'))).toEqual([
      '9: grants[0].effects: expected a list of effects, got "write /x"',
    ]);
  });

  it("anchors the shapes of an effect and of a key at both ends", () => {
    for (const effect of ["1write /x", "Write /x"])
      expect(problems(one.replace(/- "write .*"/, `- "${effect}"`)).join("\n")).toContain(
        'grants[0].effects[0]: expected an effect as "verb target"',
      );
    const key = /key: "([0-9a-f]+)"/.exec(one)?.[1] ?? "";
    for (const bad of [`x${key}`, `${key}x`])
      expect(problems(one.replace(key, bad)).join("\n")).toContain("grants[0].key: expected 64 hex digits");
  });

  it("names the line of an unknown key, and of a value on the line after its key", () => {
    expect(problems(one.replace("    by:", "    who:\n      nested: 1\n    by:"))).toEqual([
      "14: grants[0].who: expected one of tool, server, method, effects, root, key, granted, by, got an unknown key",
    ]);
    expect(problems(one.replace('tool: "write_file"', "tool:\n      - a"))).toEqual([
      "7: grants[0].tool: expected a non-empty string, got a list",
    ]);
  });

  it("lists several problems in the order of their lines", () => {
    const text = one
      .replace('granted: "2026-12-02T14:00:00.000Z"', 'granted: "yesterday"')
      .replace('  - tool: "write_file"', '  - who: 1\n    tool: "write_file"');
    const lines = problems(text).map((p) => Number(p.split(":")[0]));
    expect(lines).toEqual([6, 14]);
    const three = one
      .replace('server: "fs"', "server: 7")
      .replace('granted: "2026-12-02T14:00:00.000Z"', 'granted: "yesterday"')
      .replace(/(by: .*\n)/, "$1    who: 1\n");
    expect(problems(three).map((p) => Number(p.split(":")[0]))).toEqual([7, 13, 15]);
  });

  it("names the line of a key that does not fit, when it stands below its name", () => {
    const moved = withGrant(undefined, grant(), FILE).replace(
      /key: "[0-9a-f]+"/,
      `key:\n      "${"0".repeat(64)}"`,
    );
    expect(problems(moved)[0]).toMatch(/^13: grants\[0\]\.key: expected the key of this entry/);
  });
});

describe("adding a grant", () => {
  it("starts a blank file with the explaining head", () => {
    const text = withGrant("  \n", grant(), FILE);
    expect(text).toBe(`${GRANT_FILE_HEAD}${renderGrantEntry(grant())}`);
    expect(GRANT_FILE_HEAD.split("\n").slice(0, 3)).toEqual([
      "# Calls effectgate allows in this project without asking you (docs/asking.md in effectgate).",
      "# Each entry allows one exact effect: that server, that tool, and exactly these paths and commands.",
      "# Delete an entry to be asked again. effectgate adds new entries at the end of the list.",
    ]);
  });

  it("writes an entry without effects as an empty list that reads back", () => {
    const g = grant({ effects: [] });
    expect(renderGrantEntry(g).split("\n")[3]).toBe("    effects: []");
    expect(readProjectGrants(withGrant(undefined, g, FILE), FILE, ROOT).grants[0]?.effects).toEqual([]);
  });

  it("writes U+FFFF and DEL with the short escape, four digits long", () => {
    const text = renderGrantEntry(grant({ effects: [{ verb: "write", target: "/p/a\uffffb\u007f" }] }));
    expect(text).toContain("\\uffff");
    expect(text).toContain("\\u007f");
    expect(text).not.toContain("\\U0000ffff");
  });

  it("adds to a file that also holds another root's entries", () => {
    const mixed = withGrant(withGrant(undefined, grant(), FILE), grant({ root: "/elsewhere" }), FILE);
    const next = withGrant(mixed, grant({ tool: "edit_file" }), FILE);
    const r = readProjectGrants(next, FILE, ROOT);
    expect(r.grants.map((g) => g.tool)).toEqual(["write_file", "edit_file"]);
    expect(r.otherRoot).toHaveLength(1);
  });

  it("refuses, in its own words, a file that would no longer read", () => {
    expect(() => withGrant("grants:\nversion: 1\n", grant(), FILE)).toThrow(
      expect.objectContaining({
        problems: [expect.objectContaining({ got: "a file effectgate cannot add an entry to" })],
      }),
    );
  });

  it("refuses a file whose last entry would take the new one in, even when it is the same effect", () => {
    // Keys at column 1 and a block scalar last: the new entry's lines, at column 2 and deeper,
    // would read as more of `by`, and the file would still hold one entry, with this very key.
    const g = grant();
    const text = [
      "version: 1",
      "grants:",
      "-",
      ' tool: "write_file"',
      ' server: "fs"',
      ' method: "tools/call"',
      " effects:",
      ' - "write /home/u/proj/package.json"',
      ' root: "/home/u/proj"',
      ` key: "${g.key}"`,
      ' granted: "2026-12-02T14:00:00.000Z"',
      " by: |",
      "  alice",
      "",
    ].join("\n");
    expect(readProjectGrants(text, FILE, ROOT).grants.map((e) => e.by)).toEqual(["alice\n"]);
    expect(readProjectGrants(`${text}${renderGrantEntry(g)}`, FILE, ROOT).grants.map((e) => e.key)).toEqual([
      g.key,
    ]);
    expect(() => withGrant(text, g, FILE)).toThrow(
      expect.objectContaining({
        problems: [
          {
            file: FILE,
            key: "grants",
            expected: "a file whose grants: list is its last key, written one `- ` entry per grant",
            got: "a file effectgate cannot add an entry to",
          },
        ],
      }),
    );
  });

  it("says why it cannot add to a file whose list is written in brackets", () => {
    let err: unknown;
    try {
      withGrant("version: 1\ngrants: []\n", grant(), FILE);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      {
        file: FILE,
        key: "grants",
        expected: "a file whose grants: list is its last key, written one `- ` entry per grant",
        got: "a file effectgate cannot add an entry to",
      },
    ]);
  });
});
