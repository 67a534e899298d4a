import { describe, expect, it } from "vitest";
import { scriptReader } from "../../../src/core/commands/setup.js";
import type { Redirect, ShellWord, SimpleCommand, Statement } from "../../../src/core/shell/script-model.js";
import { commandEffects, KIT } from "../../helpers/commands.js";

// The statements the script reader makes of a command string (script.ts): each case pins the
// whole reading, so that a statement, word or redirection lost, gained or moved shows. Word
// positions (start/end) are left out: they belong to the word reader.

const read = scriptReader(KIT.parser);

function reading(text: string): unknown {
  return JSON.parse(
    JSON.stringify(read(text), (k, v: unknown) => (k === "start" || k === "end" ? undefined : v)),
  );
}

const script = (text: string): unknown => {
  const r = reading(text) as { ok: boolean; script?: unknown };
  expect(r.ok).toBe(true);
  return r.script;
};

const lit = (text: string, quoted = false): ShellWord => ({
  source: text,
  parts: [{ kind: "text", text, quoted }],
});
const to = (op: string, file: string): Redirect => ({ op, target: lit(file) });
const cmd = (
  source: string,
  words: string[] = [source],
  more: Partial<SimpleCommand> = {},
): SimpleCommand => ({
  kind: "simple",
  source,
  assigns: [],
  words: words.map((w) => lit(w)),
  declares: [],
  redirects: [],
  ...more,
});
const brace = (source: string, body: Statement, redirects: Redirect[] = []): Statement => ({
  kind: "group",
  subshell: false,
  body,
  redirects,
  source,
});
const test = (...words: ShellWord[]): Statement => ({ kind: "test", words });

describe("declarations", () => {
  it("reads the builtin as an unquoted word, an assignment as one quoted word, a name as itself", () => {
    expect(script('export A B=2 "C=3"')).toEqual(
      cmd('export A B=2 "C=3"', [], {
        words: [
          lit("export"),
          lit("A"),
          lit("B=2", true),
          { source: '"C=3"', parts: [lit("C=3", true).parts[0]!] },
        ],
        declares: [
          { name: "A", append: false },
          { name: "B", value: lit("2"), append: false },
        ],
      }),
    );
  });

  it("declares only names, not the options before them", () => {
    expect(script("export -n A")).toEqual(
      cmd("export -n A", ["export", "-n", "A"], { declares: [{ name: "A", append: false }] }),
    );
    expect(script("unset A")).toEqual(
      cmd("unset A", ["unset", "A"], { declares: [{ name: "A", append: false }] }),
    );
  });

  it("keeps `+=` as an append", () => {
    expect(script("export A+=1")).toEqual(
      cmd("export A+=1", [], {
        words: [lit("export"), lit("A+=1", true)],
        declares: [{ name: "A", value: lit("1"), append: true }],
      }),
    );
  });
});

describe("arguments the grammar reads as tokens", () => {
  it("keeps `==`, `=~` and a bare `$` as words, as bash passes them on", () => {
    expect(script("rm -f == x =~ y")).toEqual(cmd("rm -f == x =~ y", ["rm", "-f", "==", "x", "=~", "y"]));
    expect(script("rm -f $")).toEqual(cmd("rm -f $", ["rm", "-f", "$"]));
    expect(script('rm $ "x"')).toEqual(
      cmd('rm $ "x"', [], {
        words: [lit("rm"), lit("$"), { source: '"x"', parts: [lit("x", true).parts[0]!] }],
      }),
    );
    expect(script("A=1 find . -name == -delete")).toEqual(
      cmd("A=1 find . -name == -delete", ["find", ".", "-name", "==", "-delete"], {
        assigns: [{ name: "A", value: lit("1"), append: false }],
      }),
    );
  });

  it("hands the words after a here-document's delimiter to its command, as bash does", () => {
    const r = script("rm <<E -rf == ~/.ssh\nx\nE") as SimpleCommand;
    expect(r.words.map((w) => w.source)).toEqual(["rm", "-rf", "==", "~/.ssh"]);
    expect(commandEffects("rm <<E -rf ~/.ssh\nx\nE", ["/home/u/p"])).toEqual(["write ~/.ssh", "class none"]);
  });

  it("so their commands' effects are whole", () => {
    expect(commandEffects("find . -name == -delete", ["/home/u/p"])).toEqual([
      "read /home/u/p/.",
      "write /home/u/p/.",
      "class reads",
    ]);
    expect(commandEffects("rm -f == x", ["/home/u/p"])).toContain("write /home/u/p/==");
  });
});

describe("assignments with no program", () => {
  it("reads one or several as a command of assignments only", () => {
    expect(script("x=1")).toEqual(
      cmd("x=1", [], { assigns: [{ name: "x", value: lit("1"), append: false }] }),
    );
    expect(script("x=1 y=2")).toEqual(
      cmd("x=1 y=2", [], {
        assigns: [
          { name: "x", value: lit("1"), append: false },
          { name: "y", value: lit("2"), append: false },
        ],
      }),
    );
  });
});

describe("redirected statements", () => {
  it("hangs a redirection on the simple command it follows, whose source then takes it in", () => {
    expect(script("echo a > f")).toEqual(cmd("echo a > f", ["echo", "a"], { redirects: [to(">", "f")] }));
  });

  it("reads a redirection with no command as a command of its own", () => {
    expect(script("> f")).toEqual(cmd("> f", [], { redirects: [to(">", "f")] }));
  });

  it("hangs a redirection on a group, and the words after it on a command beside the group", () => {
    const inner = brace("{ ls; }", cmd("ls"));
    expect(script("{ ls; } > f")).toEqual(brace("{ ls; } > f", inner, [to(">", "f")]));
    expect(script("{ ls; } > f x")).toEqual(
      brace("{ ls; } > f x", { kind: "sequence", items: [inner, cmd("{ ls; } > f x", ["x"])] }, [
        to(">", "f"),
      ]),
    );
  });

  it("keeps a list's redirection on the whole list when the list ends with no simple command", () => {
    expect(script("a && (b) > f")).toEqual(
      brace(
        "a && (b) > f",
        {
          kind: "sequence",
          items: [cmd("a"), { kind: "group", subshell: true, body: cmd("b"), redirects: [], source: "(b)" }],
        },
        [to(">", "f")],
      ),
    );
    expect(script("a && b | c > f")).toEqual(
      brace(
        "a && b | c > f",
        {
          kind: "sequence",
          items: [cmd("a"), { kind: "pipeline", stages: [cmd("b"), cmd("c")], source: "b | c" }],
        },
        [to(">", "f")],
      ),
    );
  });
});

describe("compound statements", () => {
  it("reads a subshell and a brace group apart", () => {
    expect(script("(ls)")).toEqual({
      kind: "group",
      subshell: true,
      body: cmd("ls"),
      redirects: [],
      source: "(ls)",
    });
    expect(script("{ ls; }")).toEqual(brace("{ ls; }", cmd("ls")));
  });

  it("reads every branch of an if", () => {
    expect(script("if a; then b; elif c; then d; else e; fi")).toEqual({
      kind: "sequence",
      items: [cmd("a"), cmd("b"), { kind: "sequence", items: [cmd("c"), cmd("d")] }, cmd("e")],
    });
  });

  it("reads `!` as the command it negates", () => {
    expect(script("! ls")).toEqual(cmd("ls"));
  });

  it("skips a comment between the stages of a pipeline", () => {
    expect(script("echo a | # c\ncat")).toEqual({
      kind: "pipeline",
      stages: [cmd("echo a", ["echo", "a"]), cmd("cat")],
      source: "echo a | # c\ncat",
    });
  });

  it("reads a case's value, each pattern, and every kind of statement in its branches", () => {
    const text =
      "case $x in a|b) export A=1;; c) unset B;; d) X=1;; e) X=1 Y=2;; f) ls >o;; g) (ls);; h) { ls; };; i) ! ls;; esac";
    expect(script(text)).toEqual({
      kind: "sequence",
      items: [
        test({ source: "$x", parts: [{ kind: "var", name: "x", op: "", source: "$x", quoted: false }] }),
        test(lit("a")),
        test(lit("b")),
        cmd("export A=1", [], {
          words: [lit("export"), lit("A=1", true)],
          declares: [{ name: "A", value: lit("1"), append: false }],
        }),
        test(lit("c")),
        cmd("unset B", ["unset", "B"], { declares: [{ name: "B", append: false }] }),
        test(lit("d")),
        cmd("X=1", [], { assigns: [{ name: "X", value: lit("1"), append: false }] }),
        test(lit("e")),
        cmd("X=1 Y=2", [], {
          assigns: [
            { name: "X", value: lit("1"), append: false },
            { name: "Y", value: lit("2"), append: false },
          ],
        }),
        test(lit("f")),
        cmd("ls >o", ["ls"], { redirects: [to(">", "o")] }),
        test(lit("g")),
        { kind: "group", subshell: true, body: cmd("ls"), redirects: [], source: "(ls)" },
        test(lit("h")),
        brace("{ ls; }", cmd("ls")),
        test(lit("i")),
        cmd("ls"),
      ],
    });
  });

  it("skips a comment in a case branch", () => {
    expect(script("case x in a) # c\n ls;; esac")).toEqual({
      kind: "sequence",
      items: [test(lit("x")), test(lit("a")), cmd("ls")],
    });
  });

  it("reads `[[ … ]]` as a test followed by the commands of its substitutions", () => {
    expect(script("[[ -f $(x) ]]")).toEqual({ kind: "sequence", items: [test(), cmd("x")] });
  });
});

describe("loops and functions", () => {
  it("keeps a for loop's values only when it has `in`", () => {
    expect(script("for x in a b; do ls; done")).toEqual({
      kind: "for",
      body: cmd("ls"),
      source: "for x in a b; do ls; done",
      variable: "x",
      values: [lit("a"), lit("b")],
    });
    expect(script("for x; do ls; done")).toEqual({
      kind: "for",
      body: cmd("ls"),
      source: "for x; do ls; done",
      variable: "x",
    });
  });

  it("reads a C-style for as the substitutions of its header, then its body", () => {
    expect(script("for ((i=0; i<$(n); i++)); do ls; done")).toEqual({
      kind: "sequence",
      items: [cmd("n"), cmd("ls")],
    });
    expect(script("for ((;;)) { ls; }")).toEqual({ kind: "sequence", items: [brace("{ ls; }", cmd("ls"))] });
    // The body's own substitutions stay inside the body's commands, read once.
    expect(script("for ((;;)); do echo $(id); done")).toEqual({
      kind: "sequence",
      items: [
        cmd("echo $(id)", [], {
          words: [
            lit("echo"),
            { source: "$(id)", parts: [{ kind: "subst", body: cmd("id"), source: "$(id)" }] },
          ],
        }),
      ],
    });
  });

  it("reads a function's name and body, with its redirections as a group around the body", () => {
    const body = brace("{ ls; }", cmd("ls"));
    expect(script("f() { ls; }")).toEqual({ kind: "function", name: "f", body, source: "f() { ls; }" });
    expect(script("function g { ls; }")).toEqual({
      kind: "function",
      name: "g",
      body,
      source: "function g { ls; }",
    });
    expect(script("f() { ls; } > out")).toEqual({
      kind: "function",
      name: "f",
      body: brace("f() { ls; } > out", body, [to(">", "out")]),
      source: "f() { ls; } > out",
    });
  });
});

describe("what cannot be read", () => {
  it("names the missing token of an incomplete command, found after a complete first statement", () => {
    expect(reading("x=1 (ls)")).toEqual({ ok: false, why: "the command is not complete bash (a missing ;)" });
  });

  it("quotes the text near an error, cut to 60 characters", () => {
    const near59 = "x".repeat(59);
    expect(reading(`echo "${near59}`)).toEqual({
      ok: false,
      why: `the command is not valid bash near ${JSON.stringify(`"${near59}`)}`,
    });
    const near60 = "x".repeat(60);
    expect(reading(`echo "${near60}`)).toEqual({
      ok: false,
      why: `the command is not valid bash near ${JSON.stringify(`"${"x".repeat(56)}...`)}`,
    });
  });

  it("refuses a command followed by a subshell, which bash refuses too", () => {
    // tree-sitter-bash reads `f (ls)` as a command with a subshell child; bash: a syntax error.
    expect(reading("f (ls)")).toEqual({
      ok: false,
      why: 'effectgate cannot read a subshell in the command "f (ls)"',
    });
  });

  it("says which shape effectgate does not read", () => {
    expect(reading("((x++))")).toEqual({
      ok: false,
      why: 'effectgate cannot read a postfix_expression: "x++"',
    });
  });
});
