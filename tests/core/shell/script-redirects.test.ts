import { describe, expect, it } from "vitest";
import type { Redirect, ShellWord, SimpleCommand, WordPart } from "../../../src/core/shell/script-model.js";
import { script, txt, w } from "../../helpers/shell-reading.js";

// Redirections and here-documents as the shell reader reads them (src/core/shell/script-redirects.ts):
// operators, descriptors, targets, a here-document's text and parts, and the statements
// tree-sitter-bash hangs under a here-document. Whole readings are pinned with toStrictEqual, so
// that a field set to undefined shows too.

const cmd = (source: string, words: ShellWord[], redirects: Redirect[] = []): SimpleCommand => ({
  kind: "simple",
  source,
  assigns: [],
  words,
  declares: [],
  redirects,
});
const cat = (source: string, redirects: Redirect[]) => cmd(source, [w("cat", 0)], redirects);
const doc = (text: string, parts: WordPart[], op = "<<"): Redirect => ({
  op,
  heredoc: { text, expands: true, parts },
});

describe("file redirections", () => {
  it("reads the descriptor, the operator and the target, and no descriptor where none is written", () => {
    const text = "cmd >f 2>>g 1>&2 &>h <i";
    expect(script(text)).toStrictEqual(
      cmd(
        text,
        [w("cmd", 0)],
        [
          { op: ">", target: w("f", 5) },
          { op: ">>", fd: "2", target: w("g", 10) },
          { op: ">&", fd: "1", target: w("2", 15) },
          { op: "&>", target: w("h", 19) },
          { op: "<", target: w("i", 22) },
        ],
      ),
    );
  });

  it("reads a descriptor closed without a target", () => {
    expect(script("exec 3>&- <&-")).toStrictEqual(
      cmd("exec 3>&- <&-", [w("exec", 0)], [{ op: ">&-", fd: "3" }, { op: "<&-" }]),
    );
  });

  it("reads a here-string's word", () => {
    expect(script("cat <<< x")).toStrictEqual(cat("cat <<< x", [{ op: "<<<", target: w("x", 8) }]));
  });
});

describe("here-documents", () => {
  it("reads the operator and the descriptor, with the redirections on the same line", () => {
    expect(script("cat 3<<-E > o\n\tx\nE")).toStrictEqual(
      cat("cat 3<<-E > o\n\tx\nE", [
        { op: ">", target: w("o", 12) },
        { ...doc("x\n", [txt("x\n", true)], "<<-"), fd: "3" },
      ]),
    );
  });

  it("reads an unquoted body as its text and expansions, each quoted", () => {
    expect(script("cat <<E\nab $x cd\nE")).toStrictEqual(
      cat("cat <<E\nab $x cd\nE", [
        doc("ab $x cd\n", [
          txt("ab ", true),
          { kind: "var", name: "x", op: "", source: "$x", quoted: true },
          txt(" cd\n", true),
        ]),
      ]),
    );
    expect(script("cat <<E\na\n$(id)\nE")).toStrictEqual(
      cat("cat <<E\na\n$(id)\nE", [
        doc("a\n$(id)\n", [
          txt("a\n", true),
          { kind: "subst", body: cmd("id", [w("id", 12)]), source: "$(id)" },
          txt("\n", true),
          txt("", true),
        ]),
      ]),
    );
  });

  it("keeps a body with a quoted end word as written, with no parts", () => {
    for (const end of ["'E'", '"E"', "\\E"]) {
      const text = `cat <<${end}\na $x\nE`;
      expect(script(text)).toStrictEqual(
        cat(text, [{ op: "<<", heredoc: { text: "a $x\n", expands: false, parts: [] } }]),
      );
    }
  });

  it("puts what follows the operator back: a pipe stays a pipeline, a list a sequence", () => {
    const piped = "cat <<E | sh\nx\nE";
    expect(script(piped)).toStrictEqual({
      kind: "pipeline",
      stages: [cat(piped, [doc("x\n", [txt("x\n", true)])]), cmd("sh", [w("sh", 10)])],
      source: piped,
    });
    const listed = "cat <<E && rm x\nE";
    expect(script(listed)).toStrictEqual({
      kind: "sequence",
      items: [cat(listed, [doc("", [])]), cmd("rm x", [w("rm", 11), w("x", 14)])],
    });
  });
});
