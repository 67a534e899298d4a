import { describe, expect, it } from "vitest";
import { awkProblem, sedScript } from "../../../src/core/commands/scripts.js";

// The little languages of sed and awk, read on their own (src/core/commands/scripts.ts): which
// sed commands read, write or run files, and whether an awk program can do more than read and
// print. A script these readers cannot follow must come back as a problem, never as harmless.

const facts = (
  reads: string[] = [],
  writes: string[] = [],
  runs: string[] = [],
  runsPatternSpace = false,
) => ({
  reads,
  writes,
  runs,
  runsPatternSpace,
});

describe("sed addresses", () => {
  it.each([
    ["1,5p", "line numbers"],
    ["0~2p", "a first~step address"],
    ["$d", "the last line"],
    ["/x/p", "a regular expression"],
    ["/a\\/b/p", "a regular expression with an escaped slash"],
    ["\\%a/b%p", "a regular expression with its own delimiter"],
    ["/x/Ip", "a regular expression with the I flag"],
    ["/x/IMp", "a regular expression with the I and M flags"],
    ["/x/,+3d", "a range of the next lines"],
    ["1,~4d", "a range to a multiple"],
    ["1!d", "a negated address"],
    ["1 ! d", "a negated address, spaced"],
    ["1{p;d}", "a block"],
    [" ;; p", "blanks and empty commands"],
    ["p;\n", "blanks after the last command"],
    ["5", "an address with no command"],
    ["1,", "a range with no end and no command"],
  ])("%s (%s) is read through to its command, which does nothing", (script) => {
    expect(sedScript(script)).toEqual(facts());
  });

  it("reads the command after an address: a numbered write is still a write", () => {
    expect(sedScript("1w out")).toEqual(facts([], ["out"]));
    expect(sedScript("/x/,/y/w out")).toEqual(facts([], ["out"]));
    expect(sedScript("0~3 w out")).toEqual(facts([], ["out"]));
    expect(sedScript("/x/I,+2 ! w out")).toEqual(facts([], ["out"]));
    expect(sedScript("$ w out")).toEqual(facts([], ["out"]));
  });

  it.each([
    ["/x", "an address that does not end"],
    ["\\", "an address that does not end"],
    ["\\%x", "an address that does not end"],
    ["/x\nw out", "an address that does not end"],
    ["1,/x", "an address that does not end"],
  ])("%j is a problem: %s", (script, why) => {
    expect(sedScript(script)).toEqual({ ...facts(), problem: why });
  });
});

describe("sed commands that read, write or run", () => {
  it("r and R read a file; w and W write one, to the end of the line", () => {
    expect(sedScript("r in.txt")).toEqual(facts(["in.txt"]));
    expect(sedScript("R  in.txt\np")).toEqual(facts(["in.txt"]));
    expect(sedScript("w out.txt")).toEqual(facts([], ["out.txt"]));
    expect(sedScript("W\tout one.txt\nr two")).toEqual(facts(["two"], ["out one.txt"]));
  });

  it("w to /dev/stdout or /dev/stderr writes no file", () => {
    expect(sedScript("w /dev/stdout")).toEqual(facts());
    expect(sedScript("W /dev/stderr")).toEqual(facts());
    expect(sedScript("w /dev/stdout2")).toEqual(facts([], ["/dev/stdout2"]));
  });

  it.each(["r", "R", "w", "W"])("%s without a file is a problem", (c) => {
    expect(sedScript(c)).toEqual({ ...facts(), problem: `the ${c} command without a file` });
    expect(sedScript(`${c}   \np`).problem).toBe(`the ${c} command without a file`);
  });

  it("e COMMAND runs it; e alone runs the edited text", () => {
    expect(sedScript("e date")).toEqual(facts([], [], ["date"]));
    expect(sedScript("1e touch a\np")).toEqual(facts([], [], ["touch a"]));
    expect(sedScript("e")).toEqual(facts([], [], [], true));
    expect(sedScript("e  \np")).toEqual(facts([], [], [], true));
  });

  it("the s command's flags: w writes a file, e runs the result", () => {
    expect(sedScript("s/a/b/")).toEqual(facts());
    expect(sedScript("s/a/b/g2pI")).toEqual(facts());
    expect(sedScript("s/a/b/gw out")).toEqual(facts([], ["out"]));
    expect(sedScript("s/a/b/w /dev/stderr")).toEqual(facts());
    expect(sedScript("s/a/b/w /dev/stdout")).toEqual(facts());
    expect(sedScript("s/a/b/e")).toEqual(facts([], [], [], true));
    expect(sedScript("s|a/b|c|w out\ns/x/y/")).toEqual(facts([], ["out"]));
    // The w flag takes the rest of the line: an `e` after it is part of the name.
    expect(sedScript("s/a/b/w oute")).toEqual(facts([], ["oute"]));
  });

  it("y transliterates and takes no flags: what follows is the next command", () => {
    expect(sedScript("y/abc/xyz/")).toEqual(facts());
    expect(sedScript("y/abc/xyz/;w out")).toEqual(facts([], ["out"]));
    expect(sedScript("y/a/e/")).toEqual(facts());
  });

  it.each([
    ["s", "an s command without a delimiter"],
    ["s\n/a/b/", "an s command without a delimiter"],
    ["s\\a\\b\\", "an s command without a delimiter"],
    ["y", "an y command without a delimiter"],
    ["s/a", "an s command that does not end"],
    ["s/a/b", "an s command that does not end"],
    ["s/a\n/b/", "an s command that does not end"],
    ["y/ab/c", "an y command that does not end"],
  ])("%j is a problem: %s", (script, why) => {
    expect(sedScript(script)).toEqual({ ...facts(), problem: why });
  });

  it("keeps what it found before a problem", () => {
    expect(sedScript("w a\nr b\ns/x")).toEqual({
      ...facts(["b"], ["a"]),
      problem: "an s command that does not end",
    });
  });
});

describe("sed text that is not commands", () => {
  it("a comment runs to the end of the line", () => {
    expect(sedScript("# w out\np")).toEqual(facts());
    expect(sedScript("p # w out")).toEqual(facts());
  });

  it("a label, and the branches to it, name no file", () => {
    expect(sedScript(":w out\nb w out")).toEqual(facts());
    expect(sedScript("t w;w out")).toEqual(facts([], ["out"]));
    expect(sedScript("T w}w out")).toEqual(facts([], ["out"]));
    expect(sedScript("b\nw out")).toEqual(facts([], ["out"]));
  });

  it("a, i and c add text to the end of the line, and across lines ended by a backslash", () => {
    expect(sedScript("a w out")).toEqual(facts());
    expect(sedScript("i\\\nw out")).toEqual(facts());
    expect(sedScript("c one \\\nw two \\\nw three\nw real")).toEqual(facts([], ["real"]));
    expect(sedScript("a one\nw real")).toEqual(facts([], ["real"]));
  });

  it("a comment's backslash does not carry it to the next line", () => {
    expect(sedScript("# one \\\nw real")).toEqual(facts([], ["real"]));
  });

  it("v and the simple commands take no file", () => {
    expect(sedScript("v 4.2;w out")).toEqual(facts([], ["out"]));
    expect(sedScript("q5")).toEqual(facts());
    expect(sedScript("l 20\nQ 1")).toEqual(facts());
    expect(sedScript("p;P;d;D;n;N;g;G;h;H;x;z;=;F;l;L;q;Q")).toEqual(facts());
    // A simple command's number and blanks are skipped: a w after them is read as a write.
    expect(sedScript("q 3 w out")).toEqual(facts([], ["out"]));
  });

  it.each(["k", "1k", "}k", "o"])("a command the reader does not know (%j) is a problem", (script) => {
    expect(sedScript(script)).toEqual({
      ...facts(),
      problem: `the command ${JSON.stringify(script.at(-1))}, which the catalogue does not know`,
    });
  });
});

describe("awk programs", () => {
  it.each([
    "{print $1}",
    '{print "system(x)"}',
    '{print "a | b"}',
    "/system\\(/ {print}",
    "$1 ~ /a|b/ {print}",
    "!/>/ {print}",
    "a || b {print}",
    "{ getline; print }",
    "# system(1) | x\n{print}",
    "{ if (a > b) n++ }",
    '{print "x > y"}',
    '{ printf "%s\\n", $1 }',
  ])("%j only reads and prints", (program) => {
    expect(awkProblem(program)).toBeUndefined();
  });

  it.each([
    ['BEGIN{system("id")}', "calls system()"],
    ["BEGIN { system ( x ) }", "calls system()"],
    ['{ print | "sort" }', "pipes to or from a command"],
    ['{ "date" | getline d }', "pipes to or from a command"],
    ['{ getline line < "file" }', "reads a file with getline"],
    ['{print > "out"}', "prints into a file"],
    ['{printf "%s", $1 >> "out"}', "prints into a file"],
    ['@load "ext"', "loads an extension"],
    ['@include "lib.awk"', "loads an extension"],
  ])("%j %s", (program, why) => {
    expect(awkProblem(program)).toBe(why);
  });

  it("a slash after a value is division, not a regular expression that hides code", () => {
    expect(awkProblem('{ y = a / system("id") / 2 }')).toBe("calls system()");
    expect(awkProblem('{ y = 4 /system("id")/ 2 }')).toBe("calls system()");
    expect(awkProblem('{ y = a[1] / system("id") / 2 }')).toBe("calls system()");
    // After an operator, a slash starts a regular expression.
    expect(awkProblem("$0 ~ /system(/")).toBeUndefined();
    expect(awkProblem("x = (/system(/)")).toBeUndefined();
    expect(awkProblem("{ print }\n/system(/")).toBeUndefined();
  });

  it("a regular expression that does not end hides nothing", () => {
    expect(awkProblem('/abc system("id")')).toBe("calls system()");
  });

  it("a comment runs to the end of its line only", () => {
    expect(awkProblem('# x\nBEGIN{system("id")}')).toBe("calls system()");
    expect(awkProblem("{print} # | sort")).toBeUndefined();
  });

  it("a string that does not end hides the rest", () => {
    expect(awkProblem('{print "a | b')).toBeUndefined();
    expect(awkProblem('{print "a\\" | b"}')).toBeUndefined();
    expect(awkProblem('{print "a\\\\" | "sort"}')).toBe("pipes to or from a command");
  });
});

describe("sed scripts at their edges", () => {
  it("an address with its own delimiter ends at that delimiter, not at a slash", () => {
    expect(sedScript("\\%a%w out")).toEqual(facts([], ["out"]));
    expect(sedScript("\\,a/b,w out")).toEqual(facts([], ["out"]));
  });

  it("an empty regular expression (the last one used) is an address", () => {
    expect(sedScript("//w out")).toEqual(facts([], ["out"]));
    expect(sedScript("//p")).toEqual(facts());
  });

  it("an address followed by an empty command goes on to the next command", () => {
    expect(sedScript("/x/;w out")).toEqual(facts([], ["out"]));
  });

  it("a added across lines ends with the script, even on a last backslash", () => {
    expect(sedScript("a\\\nw out")).toEqual(facts());
    expect(sedScript("a one \\")).toEqual(facts());
    expect(sedScript("1a one \\")).toEqual(facts());
  });

  it("v at the end of the script ends it", () => {
    expect(sedScript("v")).toEqual(facts());
    expect(sedScript("v 4.2")).toEqual(facts());
  });

  it("e followed only by a carriage return (a CRLF script) runs the edited text", () => {
    expect(sedScript("e\r\np")).toEqual(facts([], [], [], true));
  });

  it("y takes no flags: a letter after it is the next command", () => {
    expect(sedScript("y/abc/xyz/I")).toEqual({
      ...facts(),
      problem: 'the command "I", which the catalogue does not know',
    });
  });
});

describe("awk programs at their edges", () => {
  it("an extension loaded at the very end of the program is still loaded", () => {
    expect(awkProblem("{ print }\n@load")).toBe("loads an extension");
    expect(awkProblem("@include")).toBe("loads an extension");
  });

  it("code before a string that does not end is still read", () => {
    expect(awkProblem('BEGIN { system("id") } { print "a')).toBe("calls system()");
  });

  it("a string between two words still separates them", () => {
    expect(awkProblem('{ x = y"-"system("id") }')).toBe("calls system()");
  });

  it("a slash after a string is division, not a regular expression that hides code", () => {
    expect(awkProblem('{ y = "4" / system("id") / 2 }')).toBe("calls system()");
  });

  it("a slash after a regular expression is division", () => {
    expect(awkProblem('{ y = (/a/ / system("id") / 2) }')).toBe("calls system()");
  });

  it("a regular expression between two pipes leaves two pipes, not an or", () => {
    expect(awkProblem('{ print |/x/| "sort" }')).toBe("pipes to or from a command");
  });

  it("a regular expression that does not end, after an operator, hides nothing", () => {
    expect(awkProblem('$0 ~ /abc system("id")')).toBe("calls system()");
  });

  it("an or (||) is not a pipe, and still separates what it joins", () => {
    expect(awkProblem('x||system("id")')).toBe("calls system()");
    expect(awkProblem("a || b {print}")).toBeUndefined();
  });
});
