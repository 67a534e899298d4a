import { describe, expect, it } from "vitest";
import type { ShellWord, SimpleCommand, WordPart } from "../../../src/core/shell/script-model.js";
import { script, txt, w } from "../../helpers/shell-reading.js";

// The words the shell reader hands on (src/core/shell/script-words.ts): each word's parts, their
// quoting, the variables and substitutions in them, and assignments. Whole readings are pinned
// (toStrictEqual), so that a part lost, gained, merged or re-quoted shows.

const v = (name: string, op: string, source: string, quoted = false): WordPart => ({
  kind: "var",
  name,
  op,
  source,
  quoted,
});
const cmd = (source: string, words: ShellWord[], more: Partial<SimpleCommand> = {}): SimpleCommand => ({
  kind: "simple",
  source,
  assigns: [],
  words,
  declares: [],
  redirects: [],
  ...more,
});
/** `echo …`: the words after `echo`. */
const echo = (text: string): ShellWord[] => {
  const s = script(text);
  if (s.kind !== "simple") throw new Error(`not a simple command: ${s.kind}`);
  expect(s.words[0]).toStrictEqual(w("echo", 0, [txt("echo")]));
  return s.words.slice(1);
};

describe("quotes and escapes", () => {
  it('inside double quotes, a backslash escapes only $ ` " \\ and a line break', () => {
    expect(echo('echo "a\\\nb" "c\\$d\\q\\`\\"\\\\"')).toStrictEqual([
      w('"a\\\nb"', 5, [txt("ab", true)]),
      w('"c\\$d\\q\\`\\"\\\\"', 12, [txt('c$d\\q`"\\', true)]),
    ]);
  });

  it("outside quotes, a backslash escapes any character, and a line continuation joins", () => {
    expect(echo("echo \\$ a\\$b")).toStrictEqual([w("\\$", 5, [txt("$")]), w("a\\$b", 8, [txt("a$b")])]);
    // A case pattern is one token; the continuation inside it is the word reader's to join.
    expect(script("case x in @(a\\\nb)) ;; esac")).toStrictEqual({
      kind: "sequence",
      items: [
        { kind: "test", words: [w("x", 5, [txt("x")])] },
        { kind: "test", words: [w("@(a\\\nb)", 10, [txt("@(ab)")])] },
      ],
    });
  });

  it("marks single-quoted, double-quoted and $'…' text as quoted, bare text and braces not", () => {
    expect(echo("echo \"a\" 'b' $'c\\x41' {1..3} a{1..2}b")).toStrictEqual([
      w('"a"', 5, [txt("a", true)]),
      w("'b'", 9, [txt("b", true)]),
      w("$'c\\x41'", 13, [txt("cA", true)]),
      w("{1..3}", 22, [txt("{1..3}")]),
      w("a{1..2}b", 29, [txt("a"), txt("{1..2}"), txt("b")]),
    ]);
  });

  it("keeps the text between a string's pieces, and no empty pieces", () => {
    expect(echo('echo "$" x"a$" "$x" "a$x"')).toStrictEqual([
      w('"$"', 5, [txt("$", true)]),
      w('x"a$"', 9, [txt("x"), txt("a", true), txt("$", true)]),
      w('"$x"', 15, [v("x", "", "$x", true)]),
      w('"a$x"', 20, [txt("a", true), v("x", "", "$x", true)]),
    ]);
    expect(echo("echo a$")).toStrictEqual([w("a$", 5, [txt("a"), txt("$")])]);
  });

  it('reads a $"…" string as its inside', () => {
    expect(script('x=$"y"')).toStrictEqual(
      cmd('x=$"y"', [], { assigns: [{ name: "x", value: w('$"y"', 2, [txt("y", true)]), append: false }] }),
    );
  });

  it("reads an extglob case pattern as text", () => {
    expect(script("case x in @(a|b)) ls;; esac")).toStrictEqual({
      kind: "sequence",
      items: [
        { kind: "test", words: [w("x", 5, [txt("x")])] },
        { kind: "test", words: [w("@(a|b)", 10, [txt("@(a|b)")])] },
        cmd("ls", [w("ls", 18, [txt("ls")])]),
      ],
    });
  });
});

describe("variables", () => {
  it("names the variable and keeps what follows it inside the braces", () => {
    expect(echo("echo $x ${ab_1} ${#x} ${!p} ${x:- a} ${a[0]} ${@} ${?} ${#} ${1}")).toStrictEqual([
      w("$x", 5, [v("x", "", "$x")]),
      w("${ab_1}", 8, [v("ab_1", "", "${ab_1}")]),
      w("${#x}", 16, [v("x", "#", "${#x}")]),
      w("${!p}", 22, [v("p", "!", "${!p}")]),
      w("${x:- a}", 28, [v("x", ":- a", "${x:- a}")]),
      w("${a[0]}", 37, [v("a", "[0]", "${a[0]}")]),
      w("${@}", 45, [v("@", "", "${@}")]),
      w("${?}", 50, [v("?", "", "${?}")]),
      w("${#}", 55, [v("#", "", "${#}")]),
      w("${1}", 60, [v("1", "", "${1}")]),
    ]);
    expect(echo("echo ${10} ${12:-x}")).toStrictEqual([
      w("${10}", 5, [v("10", "", "${10}")]),
      w("${12:-x}", 11, [v("12", ":-x", "${12:-x}")]),
    ]);
  });

  it("keeps the whole inside as the operator when no name starts it", () => {
    expect(echo("echo ${=x} ${ x} ${}")).toStrictEqual([
      w("${=x}", 5, [v("", "=x", "${=x}")]),
      w("${ x}", 11, [v("", " x", "${ x}")]),
      w("${}", 17, [v("", "", "${}")]),
    ]);
  });
});

describe("substitutions", () => {
  const id = (at: number) => cmd("id", [w("id", at, [txt("id")])]);

  it("reads process substitutions, with which way the pipe goes", () => {
    expect(echo("echo >(id) <(id)")).toStrictEqual([
      w(">(id)", 5, [{ kind: "procsub", output: true, body: id(7), source: ">(id)" }]),
      w("<(id)", 11, [{ kind: "procsub", output: false, body: id(13), source: "<(id)" }]),
    ]);
  });

  it("reads arithmetic as a number, with the substitutions inside it", () => {
    expect(echo("echo $((1+2)) $((1+$(id)))")).toStrictEqual([
      w("$((1+2))", 5, [{ kind: "arith", inner: [], source: "$((1+2))" }]),
      w("$((1+$(id)))", 14, [{ kind: "arith", inner: [id(21)], source: "$((1+$(id)))" }]),
    ]);
  });

  it("reads a test as its substitutions only", () => {
    expect(script("[[ -f x ]]")).toStrictEqual({ kind: "sequence", items: [{ kind: "test", words: [] }] });
    expect(script("[[ $(id) == <(id) ]]")).toStrictEqual({
      kind: "sequence",
      items: [{ kind: "test", words: [] }, id(5), id(14)],
    });
  });
});

describe("words tree-sitter-bash splits", () => {
  it("joins a piece that starts where a word or a redirection target ends", () => {
    expect(script("echo a'b'\\c d")).toStrictEqual(
      cmd("echo a'b'\\c d", [
        w("echo", 0, [txt("echo")]),
        w("a'b'\\c", 5, [txt("a"), txt("b", true), txt("c")]),
        w("d", 12, [txt("d")]),
      ]),
    );
    expect(script("echo a >f'b'\\c")).toStrictEqual(
      cmd("echo a >f'b'\\c", [w("echo", 0, [txt("echo")]), w("a", 5, [txt("a")])], {
        redirects: [{ op: ">", target: w("f'b'\\c", 8, [txt("f"), txt("b", true), txt("c")]) }],
      }),
    );
  });

  it("leaves alone the words of a declaration, which have no place in the text", () => {
    const bare = (source: string, quoted: boolean): ShellWord => ({ source, parts: [txt(source, quoted)] });
    expect(script("export A=1 B=2 >f")).toStrictEqual(
      cmd("export A=1 B=2 >f", [bare("export", false), bare("A=1", true), bare("B=2", true)], {
        declares: [
          { name: "A", value: w("1", 9, [txt("1")]), append: false },
          { name: "B", value: w("2", 13, [txt("2")]), append: false },
        ],
        redirects: [{ op: ">", target: w("f", 16, [txt("f")]) }],
      }),
    );
  });
});

describe("assignments", () => {
  it("reads empty, appended, subscripted and array values", () => {
    const text = 'x= a+=1 b=2 c[1 + 2]=x d=(1 "2") e+=(3)';
    expect(script(text)).toStrictEqual(
      cmd(text, [], {
        assigns: [
          { name: "x", value: { source: "", parts: [] }, append: false },
          { name: "a", value: w("1", 6, [txt("1")]), append: true },
          { name: "b", value: w("2", 10, [txt("2")]), append: false },
          { name: "c", value: w("x", 21, [txt("x")]), append: false },
          { name: "d", elements: [w("1", 26, [txt("1")]), w('"2"', 28, [txt("2", true)])], append: false },
          { name: "e", elements: [w("3", 37, [txt("3")])], append: true },
        ],
      }),
    );
  });
});
