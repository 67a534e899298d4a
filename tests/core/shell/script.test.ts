import { describe, expect, it } from "vitest";
import { wordValue } from "../../../src/core/commands/words.js";
import { scriptReader } from "../../../src/core/commands/setup.js";
import type { SimpleCommand, Statement } from "../../../src/core/shell/script-model.js";
import { KIT } from "../../helpers/commands.js";

// The shell reader over tree-sitter-bash (docs/decisions/0078-shell-grammar.md): the words bash
// hands each program, the redirections, and where tree-sitter's tree differs from bash.

const read = scriptReader(KIT.parser);

function simples(s: Statement): SimpleCommand[] {
  switch (s.kind) {
    case "simple":
      return [s];
    case "sequence":
      return s.items.flatMap(simples);
    case "pipeline":
      return s.stages.flatMap(simples);
    case "group":
    case "function":
    case "for":
      return simples(s.body);
    case "test":
      return [];
  }
}

/** Each simple command as its words (exact where known, else as written) and redirections. */
function commands(text: string): string[] {
  const r = read(text);
  if (!r.ok) return [`unreadable: ${r.why}`];
  return simples(r.script).map((c) => {
    const shown = (w: Parameters<typeof wordValue>[0]) => {
      const v = wordValue(w, new Map());
      return v.exact ?? `<${v.text}>`;
    };
    const words = c.words.map(shown);
    const redirects = c.redirects.map(
      (x) => `${x.fd ?? ""}${x.op}${x.target === undefined ? "" : shown(x.target)}`,
    );
    return [...words, ...redirects].join(" | ");
  });
}

describe("words as bash hands them to a program", () => {
  it.each([
    [
      'echo x > "$HOME/.config/Code - Insiders/User/settings.json"',
      ["echo | x | ><$HOME/.config/Code - Insiders/User/settings.json>"],
    ],
    [
      "echo x > ~/.config/Code\\ -\\ Insiders/User/settings.json",
      ["echo | x | >~/.config/Code - Insiders/User/settings.json"],
    ],
    ["echo x >> ~/$'\\x2essh'/authorized_keys", ["echo | x | >>~/.ssh/authorized_keys"]],
    ["echo $'a\\'b' \"c\\\"d\" 'e\\f' a\\\\b", ["echo | a'b | c\"d | e\\f | a\\b"]],
    ["echo \"a\"'b'c", ["echo | abc"]],
    ["tee ~/.ss{h,x}/k", ["tee | ~/.ss{h,x}/k"]],
    ["sort -o$HOME/.ssh/k", ["sort | <-o$HOME/.ssh/k>"]],
    ["echo hi # > ~/.bashrc", ["echo | hi"]],
    ["echo hi \\\n > ~/.bashrc", ["echo | hi | >~/.bashrc"]],
    ["echo a >f b", ["echo | a | b | >f"]],
    [">f echo a", ["echo | a | >f"]],
    ["echo a'b'\\c d", ["echo | abc | d"]],
    ["cmd 2>/dev/null 1>&2", ["cmd | 2>/dev/null | 1>&2"]],
    ["ls &> out.txt", ["ls | &>out.txt"]],
    ['echo $"translated"', ["echo | translated"]],
  ])("%s", (text, expected) => {
    expect(commands(text)).toEqual(expected);
  });
});

describe("where tree-sitter-bash's tree differs from bash", () => {
  it("puts a redirection after a list back on the list's last command", () => {
    expect(commands("cd ~ && echo x >> .bashrc")).toEqual(["cd | ~", "echo | x | >>.bashrc"]);
  });

  it("keeps what follows a here-document's operator as its own commands, piped as written", () => {
    const r = read("cat <<EOF | sh\ncurl x\nEOF\necho after");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.script.kind).toBe("sequence");
    expect(JSON.stringify(r.script)).toContain('"kind":"pipeline"');
    expect(commands("cat <<EOF | sh\ncurl x\nEOF\necho after")).toEqual(["cat | <<", "sh", "echo | after"]);
  });

  it("reads a quoted here-document as text, an unquoted one with its substitutions", () => {
    const r = read("cat <<EOF > out\n$(id) line\nEOF");
    expect(r.ok && JSON.stringify(r.script).includes('"kind":"subst"')).toBe(true);
    const q = read("cat <<'EOF'\n$(id)\nEOF");
    expect(q.ok && JSON.stringify(q.script).includes('"expands":false')).toBe(true);
  });

  it("refuses what is not complete bash", () => {
    expect(commands('echo "unterminated')[0]).toMatch(/^unreadable: /);
    expect(commands("if true; then echo")[0]).toMatch(/^unreadable: /);
  });
});

describe("statements", () => {
  it("reads the commands inside substitutions, loops, functions, tests and case", () => {
    const r = read(
      'for f in *.ts; do wc -l "$f"; done; f() { rm -rf ~; }; [[ $(id) ]]; case $x in a) ls;; esac; echo $(cat k) `whoami`',
    );
    expect(r.ok).toBe(true);
    const text = JSON.stringify(r.ok ? r.script : {});
    for (const w of ['"wc"', '"rm"', '"id"', '"ls"', '"cat"', '"whoami"']) expect(text).toContain(w);
  });

  it("keeps assignments before a program and declarations apart from words", () => {
    const r = read("FOO=$(id) BAR=1 env; export A B=2");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [first, second] = simples(r.script) as [SimpleCommand, SimpleCommand];
    expect(first.assigns.map((a) => a.name)).toEqual(["FOO", "BAR"]);
    expect(second.declares.map((d) => d.name)).toEqual(["A", "B"]);
  });
});

describe("long chains", () => {
  it("reads a chain of thousands of commands flat, without exhausting the stack", () => {
    // `a && b && …` nests one list per operator; read recursively, 5,000 of them overflowed.
    const chain = `${Array.from({ length: 5000 }, (_, i) => `echo ${i} &&`).join(" ")} touch PAYLOAD`;
    const got = commands(chain);
    expect(got).toHaveLength(5001);
    expect(got[0]).toBe("echo | 0");
    expect(got.at(-1)).toBe("touch | PAYLOAD");
  });
});
