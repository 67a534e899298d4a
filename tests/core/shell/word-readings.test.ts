import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { wordReadings } from "../../../src/core/shell/word-readings.js";

// The readings of one dequoted word that a path rule must see (decision 0062): braces, `~user`,
// `~+`/`~-`, and what each variable may stand for. Each case pins the whole list, so that a
// reading lost or gained shows.

const words = (w: string) => wordReadings(w).words;
const hasBash = spawnSync("bash", ["--version"]).status === 0;
/** The words bash makes of `word` (unquoted, with nothing set: brace expansion is all that applies). */
const bashWords = (word: string) =>
  spawnSync("bash", ["--norc", "--noprofile", "-c", `printf '%s\\n' ${word}`], { encoding: "utf8" })
    .stdout.split("\n")
    .slice(0, -1);

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

describe("sequence expressions and nested lists, near misses included", () => {
  const SEQUENCES: [string, string[]][] = [
    ["f{8..10}", ["f8", "f9", "f10"]],
    ["f{100..98}", ["f100", "f99", "f98"]],
    ["f{-1..1}", ["f-1", "f0", "f1"]],
    ["f{3..3}", ["f3"]],
    ["f{a,{b,c}d}", ["fa", "fbd", "fcd"]],
    ["f{{a,b},c}", ["fa", "fb", "fc"]],
    ["f{1..30..10}", ["f1", "f11", "f21"]],
    ["f{a..e..2}", ["fa", "fc", "fe"]],
    ["f{a..z..10}", ["fa", "fk", "fu"]],
    ["f{e..a..-2}", ["fe", "fc", "fa"]],
    ["f{x1..3}", []],
    ["f{1..3x}", []],
    ["f{1..3..2x}", []],
    ["f{a..c..x}", []],
    ["f{a..c..2x}", []],
    ["f{a..1}", []],
    ["f{xa..c}", []],
    ["f{a..cd}", []],
  ];

  it.each(SEQUENCES)("%s reads as itself and its members", (word, members) => {
    expect(words(word)).toEqual([word, ...members]);
  });

  it.runIf(hasBash)("as bash expands them", () => {
    for (const [word, members] of SEQUENCES)
      expect([word, bashWords(word)]).toEqual([word, members.length > 0 ? members : [word]]);
  });

  it("counts the members of a stepped sequence, not its span, against the limit", () => {
    const r = wordReadings("f{1..400..2}");
    expect(r.unjudgeable).toBeUndefined();
    expect(r.words).toHaveLength(201);
    expect(r.words.slice(0, 3)).toEqual(["f{1..400..2}", "f1", "f3"]);
    expect(r.words.at(-1)).toBe("f399");
  });
});

describe("a plain word", () => {
  it("is its only reading", () => {
    expect(wordReadings("src/x.ts")).toEqual({ words: ["src/x.ts"], globFolders: [] });
  });
});

describe("brace groups that are none", () => {
  it("leaves an unclosed group and a ${…} variable unexpanded", () => {
    expect(words("f{a,b")).toEqual(["f{a,b"]);
    expect(words("${a,b}/k")).toEqual([
      "${a,b}/k",
      "${a}/k",
      "${a}/../k",
      "${a}/../../k",
      "${a}/../../../k",
      "/k",
    ]);
  });

  it("expands a group after a variable's name, as bash does before it reads the variable", () => {
    expect(words("$HOME{a,b}")).toEqual(["$HOME{a,b}", "{a,b}", "$HOMEa", "$HOMEb"]);
  });
});

describe("values glued to an option", () => {
  it.each([
    ["--out=/x", ["/x"]],
    ["--out=", []],
    ["--verbose", []],
    ["-xy--", ["y--", "--"]],
    ["-rf", []],
    ["-:/x", []],
    ["-Path:", []],
    ["-Path:x", ["x"]],
    ["-Path:x/y", ["x/y"]],
    ["-Path:C:/y", ["C:/y"]],
    ["-oC:\\x", ["\\x", "C:\\x"]],
    ["-o/x", ["/x"]],
  ])("%s reads as %j", (word, readings) => {
    expect(words(word)).toEqual(readings);
  });

  it("tries the last 32 letters of a long cluster, and the value after the first letter", () => {
    const letters = "a".repeat(40);
    const starts = [2, ...Array.from({ length: 33 }, (_, k) => 9 + k)];
    expect(words(`-${letters}/x`)).toEqual(starts.map((k) => `-${letters}/x`.slice(k)));
  });
});

describe("a word with an = in it", () => {
  it("reads the value after the first =, when there is one before the end", () => {
    expect(words("VAR=/x")).toEqual(["VAR=/x", "/x"]);
    expect(words("=/x")).toEqual(["=/x"]);
    expect(words("a=")).toEqual(["a="]);
  });
});

describe("tilde prefixes, near misses", () => {
  it.each([["a~b/x"], ["~a+/x"], ["~+x/k"], ["~1a/x"]])("%s names no home", (word) => {
    expect(words(word)).toEqual([word]);
  });
});

describe("variables, near misses", () => {
  it.each([
    ["$env:AB/k", ["$env:AB/k", "/k"]],
    ["$env:1/k", ["$env:1/k", ":1/k"]],
    ["$AB_1/k", ["$AB_1/k", "/k"]],
    ["$env:_a1/k", ["$env:_a1/k", "/k"]],
    ["$env:a-b/k", ["$env:a-b/k", "-b/k"]],
    ["$ab-c/k", ["$ab-c/k", "-c/k"]],
    ["a$?b", ["a$?b", "ab"]],
    ["$1b/$2", ["$1b/$2", "$1b/", "b/$2", "b/"]],
    ["${#}/k", ["${#}/k", "/k"]],
    ["${!}/k", ["${!}/k", "/k"]],
    ["${X+/e}/k", ["${X+/e}/k", "/e/k", "/k"]],
    ["${X/:-/e}/k", ["${X/:-/e}/k", "${X}/k", "${X}/../k", "${X}/../../k", "${X}/../../../k", "/k"]],
    ["${A B}/k", ["${A B}/k", "${A}/k", "${A}/../k", "${A}/../../k", "${A}/../../../k", "/k"]],
    ["$1a/k", ["$1a/k", "a/k"]],
    ["$-/k", ["$-/k", "/k"]],
    ["$(x)/k", ["$(x)/k"]],
    ["cost$", ["cost$"]],
    ["a$?", ["a$?", "a"]],
    ["${ X:-/etc}/k", ["${ X:-/etc}/k", "/k"]],
    ["${%X}/k", ["${%X}/k", "/k"]],
    ["${AB:-/e}/k", ["${AB:-/e}/k", "${AB}/k", "/e/k", "/k"]],
    ["${!X:-/etc}/k", ["${!X:-/etc}/k", "/k"]],
    ["${#X%/}/k", ["${#X%/}/k", "/k"]],
    ["${X%/}/k", ["${X%/}/k", "${X}/k", "${X}/../k", "${X}/../../k", "${X}/../../../k", "/k"]],
    ["${X%:-/e}/k", ["${X%:-/e}/k", "${X}/k", "${X}/../k", "${X}/../../k", "${X}/../../../k", "/k"]],
  ])("%s reads as %j", (word, readings) => {
    expect(words(word)).toEqual(readings);
  });

  it("braces a default's variable that text after it would otherwise continue", () => {
    expect(words("${X:-$A}b")).toEqual(["${X:-$A}b", "${X}b", "${A}b", "b"]);
    expect(words("${X:-$AB}b")).toEqual(["${X:-$AB}b", "${X}b", "${AB}b", "b"]);
    expect(words("${X:-x$A}b")).toEqual(["${X:-x$A}b", "${X}b", "x$Ab", "b"]);
    expect(words("${X:-$A/}b")).toEqual(["${X:-$A/}b", "${X}b", "$A/b", "b"]);
    expect(words("${X:-$1}b")).toEqual(["${X:-$1}b", "${X}b", "$1b", "b"]);
  });

  it("reads every combination, in order, up to 64 of them", () => {
    expect(words("$A/$B")).toEqual(["$A/$B", "$A/", "/$B", "/"]);
    const six = words("$A$B$C$D$E$F");
    // 64 combinations, the one with all unset empty.
    expect(six).toHaveLength(63);
    expect(six.slice(0, 4)).toEqual(["$A$B$C$D$E$F", "$A$B$C$D$E", "$A$B$C$D$F", "$A$B$C$D"]);
    expect(six.slice(-3)).toEqual(["$E$F", "$E", "$F"]);
  });
});

describe("the folders a glob reaches into, near misses", () => {
  it("takes $? for a variable, not a glob", () => {
    expect(wordReadings("$?/x")).toEqual({ words: ["$?/x", "/x"], globFolders: [] });
  });

  it.each([
    ["~/x", []],
    ["~/ab]/x", []],
    ["~/[ab/x", []],
    ["~/a]b[cd/x", []],
    ["~/[a/b]", []],
    ["~/x[ab]", ["~"]],
    ["~/x[a]/y", ["~"]],
    ["*.ts", []],
    ["a/*", ["a"]],
    ["*/k", ["."]],
    ["ab?/x", ["."]],
    ["//./x/*", []],
    ["\\??\\C:\\x*", []],
    ["\\??x/*", ["\\"]],
    ["\\\\?\\C:\\x*", []],
    ["\\\\.\\C:\\x*", []],
    ["\\?\\C:\\x*", ["\\"]],
    ["x//./y*", ["x//."]],
    ["/./x*", ["/."]],
    ["//x/y*", ["//x"]],
    ["//.x/*", ["//.x"]],
    ["http://h/*", []],
    ["1http://h/*", ["1http://h"]],
    ["ab:/*", ["ab:"]],
    ["C:/*", ["C:/"]],
    ["C:\\*", ["C:\\"]],
    ["C:/x/*", ["C:/x"]],
  ])("%s reaches into %j", (word, folders) => {
    expect(wordReadings(word)).toEqual({ words: [word, ...folders], globFolders: folders });
  });
});

describe("a word past the brace limit", () => {
  it("keeps the readings of the values before it, and names the value that is over", () => {
    expect(wordReadings("-x{1..300}=/y/*")).toEqual({
      words: ["/y/*", "/y"],
      globFolders: ["/y"],
      unjudgeable: 'the command word "{1..300}=/y/*" expands to more than 256 words',
    });
  });

  it("quotes at most 200 characters of the word", () => {
    const word = `f{1..300}${"x".repeat(300)}`;
    expect(wordReadings(word)).toEqual({
      words: [],
      globFolders: [],
      unjudgeable: `the command word ${JSON.stringify(word.slice(0, 200))} expands to more than 256 words`,
    });
  });
});
