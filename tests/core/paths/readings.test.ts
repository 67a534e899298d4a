import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY, LITERAL, STEP } from "../../../src/core/paths/canonical.js";
import { otherReadings, readingNote } from "../../../src/core/paths/readings.js";
import { LINUX, WIN32 } from "../../helpers/profiles.js";

// Decision 0061: trimming, file: decoding, ~ and $VAR expansion are effectgate's reading of a
// path string; a server may take it literally. These tests pin which other readings exist and
// what each canonicalises to.

function lexical(input: string, profile: PlatformProfile, leaveOut: number): string {
  const c = canonicalise(input, profile, LEXICAL_ONLY, leaveOut);
  if (!c.ok) throw new Error(`${JSON.stringify(input)} refused: ${c.error}`);
  return c.lexical;
}

/** Every reading's lexical form, effectgate's own first. */
function readings(input: string, profile: PlatformProfile = LINUX): string[] {
  return [0, ...otherReadings(input, profile).map((r) => r.leaveOut)].map((m) => lexical(input, profile, m));
}

describe("the readings of a path string", () => {
  it.each([
    // D1: the untrimmed string is relative to a server that does not trim.
    [" /../.bashrc", ["/.bashrc", "/srv/project/.bashrc"]],
    // D2: the variable left as written is a relative name that `..` cancels.
    ["$HOME/../.ssh/authorized_keys", ["/home/.ssh/authorized_keys", "/srv/project/.ssh/authorized_keys"]],
    ["x$HOME/../.bashrc", ["/srv/project/x/home/.bashrc", "/srv/project/.bashrc"]],
    ["${HOME}/../.ssh/x", ["/home/.ssh/x", "/srv/project/.ssh/x"]],
    // D3: an undecoded URI is a relative path; `?` and `#` are ordinary characters in it.
    ["file:/../.ssh/config", ["/.ssh/config", "/srv/project/.ssh/config"]],
    ["file:/x?/../../.bashrc", ["/x", "/srv/project/.bashrc"]],
    // `~` left as written is a folder named `~`.
    ["~/.ssh/x", ["/home/u/.ssh/x", "/srv/project/~/.ssh/x"]],
  ])("%j reads as %j", (input, expected) => {
    expect(readings(input)).toEqual(expected);
  });

  it("combines the steps left out, one reading per distinct text", () => {
    expect(readings(" ~/$HOME/../x ")).toEqual([
      "/home/u/home/x", // effectgate's own
      "/srv/project/ ~/home/x ", // untrimmed: `~` is no longer leading, the variable still expands
      "/srv/project/~/home/x", // `~` literal
      "/home/u/x", // the variable literal
      "/srv/project/ ~/x ", // untrimmed, the variable literal
      "/srv/project/~/x", // `~` and the variable literal
    ]);
    // A URI left undecoded may have its `~` or variables expanded instead.
    expect(readings("file:/$HOME/../.bashrc")).toEqual([
      "/.bashrc",
      "/srv/project/file:/home/.bashrc",
      "/srv/project/file:/.bashrc",
    ]);
  });

  it("has no other reading for a path no step changes", () => {
    for (const plain of ["src/a.ts", "/etc/passwd", "$NOPE/x", "a~/b", "file", "%HOME%/x", "../x"])
      expect(otherReadings(plain, LINUX)).toEqual([]);
    expect(otherReadings("%USERPROFILE%\\x", WIN32).map((r) => r.note)).toEqual([
      " (if the server does not expand variables)",
    ]);
  });

  it("says in each note which steps the reading leaves out", () => {
    expect(otherReadings(" $HOME/x", LINUX).map((r) => r.note)).toEqual([
      " (if the server does not trim whitespace)",
      " (if the server does not expand variables)",
      " (if the server does not trim whitespace or expand variables)",
    ]);
    expect(otherReadings("file:/x", LINUX).map((r) => r.note)).toEqual([
      " (if the server does not decode file: URIs)",
    ]);
    expect(readingNote(STEP.trim | STEP.uri | STEP.home)).toBe(
      " (if the server does not trim whitespace, decode file: URIs or expand ~)",
    );
    expect(readingNote(0)).toBe("");
  });

  it("takes the text as written when every step is left out", () => {
    expect(lexical(" $HOME/a ", LINUX, LITERAL)).toBe("/srv/project/ $HOME/a ");
    expect(lexical("~/a", LINUX, STEP.home)).toBe("/srv/project/~/a");
    // effectgate's own reading is unchanged
    expect(lexical(" $HOME/a ", LINUX, 0)).toBe("/home/u/a");
  });
});

describe("Unicode equivalents", () => {
  it("lists the NFC form of a path with a name outside ASCII", () => {
    const c = canonicalise("/home/u/\u212Aeys/k", LINUX, LEXICAL_ONLY);
    expect(c.ok && c.equivalents).toEqual(["/home/u/Keys/k"]);
    const nfd = canonicalise("/home/jose\u0301/.bashrc", LINUX, LEXICAL_ONLY);
    expect(nfd.ok && nfd.equivalents).toEqual(["/home/jos\u00e9/.bashrc"]);
  });

  it("adds the resolver's equivalent, and nothing for ASCII, NFC-only names or when left out", () => {
    const asked: string[] = [];
    const resolver = {
      realpath: () => undefined,
      unicodeEquivalent: (p: string) => {
        asked.push(p);
        return p.replace("caf\u00e9", "cafe\u0301");
      },
    };
    const c = canonicalise("/x/caf\u00e9/y", LINUX, resolver);
    expect(c.ok && c.equivalents).toEqual(["/x/cafe\u0301/y"]);
    expect(canonicalise("/x/a/y", LINUX, resolver)).not.toHaveProperty("equivalents");
    expect(canonicalise("/x/caf\u00e9/y", LINUX, resolver, STEP.unicode)).not.toHaveProperty("equivalents");
    expect(asked).toEqual(["/x/caf\u00e9/y"]);
    expect(canonicalise("/x/\u00e9", LINUX, LEXICAL_ONLY)).not.toHaveProperty("equivalents");
  });
});
