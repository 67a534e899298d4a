import { describe, expect, it } from "vitest";
import { wordReadings } from "../../../src/core/shell/word-readings.js";

// The readings of one dequoted word that a path rule must see (decision 0062): braces, `~user`,
// `~+`/`~-`, and what each variable may stand for. Each case pins the whole list, so that a
// reading lost or gained shows.

const words = (w: string) => wordReadings(w).words;

describe("brace sequences, as bash expands them", () => {
  it("pads to the wider end when an end has a leading zero", () => {
    expect(words("f{01..03}")).toEqual(["f{01..03}", "f01", "f02", "f03"]);
    expect(words("f{1..03}")).toEqual(["f{1..03}", "f01", "f02", "f03"]);
  });

  it("counts down, steps, and runs over letters", () => {
    expect(words("f{3..1}")).toEqual(["f{3..1}", "f3", "f2", "f1"]);
    expect(words("f{1..9..4}")).toEqual(["f{1..9..4}", "f1", "f5", "f9"]);
    expect(words("f{1..5..-2}")).toEqual(["f{1..5..-2}", "f1", "f3", "f5"]);
    expect(words("f{1..2..0}")).toEqual(["f{1..2..0}", "f1", "f2"]);
    expect(words("~/.ss{g..i}")).toEqual(["~/.ss{g..i}", "~/.ssg", "~/.ssh", "~/.ssi"]);
  });

  it("refuses a word that expands past 256 words, and reads one of 256", () => {
    expect(wordReadings("f{1..257}").unjudgeable).toMatch(/expands to more than 256 words/);
    expect(wordReadings("f{1..256}").unjudgeable).toBeUndefined();
    expect(words("f{1..256}")).toHaveLength(257);
    expect(wordReadings("{a,b}{1..200}").unjudgeable).toMatch(/more than 256/);
  });

  it("leaves a group that is neither a list nor a sequence as it is", () => {
    expect(words("f{x}")).toEqual(["f{x}"]);
    expect(words("f{1..x}")).toEqual(["f{1..x}"]);
  });
});

describe("tilde prefixes", () => {
  it("reads ~+ as the current folder and ~- as the last one", () => {
    // With the variable unset, `$PWD/a` is `/a` too.
    expect(words("~+/a")).toEqual(["~+/a", "./a", "$PWD/a", "/a"]);
    expect(words("~-/a")).toEqual(["~-/a", "$OLDPWD/a", "/a"]);
  });

  it("reads ~user as a sibling of the home folder, and nothing else as a user", () => {
    expect(words("~alice/.ssh")).toEqual(["~alice/.ssh", "~/../alice/.ssh"]);
    expect(words("~1/x")).toEqual(["~1/x"]);
  });
});

describe("what a variable may stand for", () => {
  it("a length or an indirection is the word or nothing", () => {
    expect(words("${#X}/k")).toEqual(["${#X}/k", "/k"]);
    expect(words("${!X}/k")).toEqual(["${!X}/k", "/k"]);
  });

  it("${X:+w} is w or nothing; ${X:?m} is the value or no command at all", () => {
    expect(words("${X:+/etc}/k")).toEqual(["${X:+/etc}/k", "/etc/k", "/k"]);
    expect(words("${X:?unset}/k")).toContain("${X}/k");
    expect(words("${X:?unset}/k")).not.toContain("/k");
    expect(words("${X-~/.ssh}")).toEqual(["${X-~/.ssh}", "${X}", "~/.ssh"]);
  });

  it("a positional or special parameter in braces stays as written", () => {
    expect(words("${1:-a}/k")).toEqual(["${1:-a}/k", "a/k", "/k"]);
    expect(words("${@}/k")).toEqual(["${@}/k", "/k"]);
  });

  it("past 64 combinations, varies one variable at a time, the others set and then unset", () => {
    expect(words("$A$B$C$D$E$F$G")).toEqual([
      "$A$B$C$D$E$F$G",
      "$B$C$D$E$F$G",
      "$A$C$D$E$F$G",
      "$A$B$D$E$F$G",
      "$A$B$C$E$F$G",
      "$A$B$C$D$F$G",
      "$A$B$C$D$E$G",
      "$A$B$C$D$E$F",
      "$A",
      "$B",
      "$C",
      "$D",
      "$E",
      "$F",
      "$G",
    ]);
  });
});

describe("the folders a glob reaches into", () => {
  it("is the root when the glob is in the first name below it", () => {
    expect(wordReadings("/e*/x").globFolders).toEqual(["/"]);
    expect(wordReadings("~/.ss?/k").globFolders).toEqual(["~"]);
  });
});
