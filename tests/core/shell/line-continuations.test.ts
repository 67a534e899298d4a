import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { asBashReadsIt } from "../../../src/core/shell/line-continuations.js";
import { commandEffects, defaultJudge, KIT } from "../../helpers/commands.js";
import { call } from "../../helpers/judge.js";

// A backslash before a line break, between tokens: bash deletes it before it splits words, and
// a backslash before CR LF quotes the CR and ends the command (src/core/shell/line-continuations.ts).

const hasBash = spawnSync("bash", ["--version"]).status === 0;
const bash = (script: string) =>
  spawnSync("bash", ["--norc", "--noprofile", "-c", script], { encoding: "utf8" }).stdout;
const judge = (command: string) => defaultJudge().judge("tools/call", call("run_command", { command }));

describe("a line continuation inside a name", () => {
  it.each([
    ["echo x > ~/.ba\\\nshrc", "paths.deny ~/.bashrc"],
    ["echo x >> ~/.bash\\\n\\\nrc", "paths.deny ~/.bashrc"],
    ["echo x > ~/.b'a'\\\nshrc", "paths.deny ~/.bashrc"],
    ["(echo x) > ~/.ba\\\nshrc", "paths.deny ~/.bashrc"],
    ["rm -rf ~/.ss\\\nh", "paths.deny ~/.ssh/**"],
    ["r\\\nm -rf ~/.ssh", "paths.deny ~/.ssh/**"],
    ["for f in ~/.ss\\\nh; do rm -rf $f; done", "paths.deny ~/.ssh/**"],
    ["export X=~/.ss\\\nh; rm -rf $X", "paths.deny ~/.ssh/**"],
    ["cat ~/.ss\\\nh/id_rsa", "paths.deny_read ~/.ssh/**"],
  ])("%j is judged as bash joins it", (command, rule) => {
    expect(judge(command)).toMatchObject({ verdict: "deny", rule });
  });

  it("joins the pieces into one word", () => {
    expect(commandEffects("cp a ~/.ba\\\nshrc")).toEqual(["read a", "write ~/.bashrc", "class none"]);
  });

  it.runIf(hasBash)("as bash does, outside single quotes", () => {
    expect(bash("printf '[%s]' a\\\nb 'c\\\nd'")).toBe("[ab][c\\\nd]");
  });

  it("leaves one inside single quotes, a here-document with a quoted end word, or a comment alone", () => {
    expect(commandEffects("echo 'a\\\nb' > notes.md")).toEqual(["write notes.md", "class none"]);
    expect(commandEffects("cat <<'E' > o.md\nx\\\ny\nE\nrm -rf ~/.ssh")).toEqual([
      "write o.md",
      "class reads",
      "write ~/.ssh",
      "class none",
    ]);
    expect(commandEffects("# a note \\\nrm -rf ~/.ssh")).toEqual(["write ~/.ssh", "class none"]);
  });

  it("a continuation between words stays a space", () => {
    expect(commandEffects("cp a \\\n~/.bashrc")).toEqual(["read a", "write ~/.bashrc", "class none"]);
    expect(judge("echo a \\\n b > notes.md").verdict).toBe("allow");
  });
});

describe("a backslash before CR LF", () => {
  it("ends the command: what follows runs, and is judged", () => {
    expect(judge("echo x \\\r\nrm -rf ~/.ssh")).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.ssh/**",
    });
    expect(commandEffects("echo x\\\r\n> o.md")).toEqual(["class none", "write o.md"]);
  });

  it.runIf(hasBash)("as in bash, which runs the second command", () => {
    expect(bash("printf '[%s]' x \\\r\nprintf second")).toBe("[x][\r]second");
  });

  it("inside double quotes is text, not the end of the command", () => {
    expect(commandEffects('echo "a\\\r\nb" > notes.md')).toEqual(["write notes.md", "class none"]);
  });
});

describe("the rewritten text", () => {
  const rewrite = (text: string) => {
    const tree = KIT.parser.parse(text);
    if (tree === undefined) throw new Error("no tree");
    try {
      return asBashReadsIt(tree.rootNode, text);
    } finally {
      tree.release();
    }
  };

  it("is none when bash reads the text as the grammar does", () => {
    expect(rewrite("echo a b > out")).toBeUndefined();
    expect(rewrite("echo 'a\\\nb' \"c\\\nd\" # e \\\n")).toBeUndefined();
    expect(rewrite("echo a \\\r\n")).toBe('echo a "\r"\n');
  });

  it("deletes each continuation between tokens and quotes a CR before LF", () => {
    expect(rewrite("rm -rf ~/.ss\\\nh")).toBe("rm -rf ~/.ssh");
    expect(rewrite("echo x >> ~/.bash\\\n\\\nrc; ls")).toBe("echo x >> ~/.bashrc; ls");
    expect(rewrite("echo x \\\r\nrm y")).toBe('echo x "\r"\nrm y');
  });

  it("keeps a here-document's body, which the tree holds before later words of its line", () => {
    expect(rewrite("cat <<E >o\\\nut\nx \\\ny\nE")).toBe("cat <<E >out\nx \\\ny\nE");
    expect(rewrite("cat <<E 'a\\\nb' c\\\nd\nx\nE")).toBe("cat <<E 'a\\\nb' cd\nx\nE");
  });
});
