import { describe, expect, it } from "vitest";
import { reasons } from "../../helpers/command-reasons.js";
import { analysisOf } from "../../helpers/commands.js";

// Programs that run other programs (src/core/commands/handlers-run.ts): sh -c, find -exec, xargs
// and env. Each row is the whole list of effects, with the reason each class effect gives: an
// option read wrongly shifts which word is the command, and shows here as a different list.

const rows = (list: [string, string[]][]) =>
  it.each(list)("%s", (command, effects) => {
    expect(reasons(command)).toEqual(effects);
  });

const ECHO = "none: echo is a shell builtin";
const RM = "none: rm does nothing beyond its operands";
const MV = "none: mv does nothing beyond its operands";

describe("sh, bash: the script and its options", () => {
  rows([
    ['bash "-$X" s.sh', ["unknown: bash: an option known only at run time"]],
    ["bash -- script.sh a", ["read script.sh", "project: bash runs script.sh", "read a", "write a"]],
    ["bash - a", ["read a", "project: bash runs a"]],
    ["bash -", ["unknown: bash reads code from its standard input"]],
    ["bash --rcfile rc.sh s.sh", ["read rc.sh", "project: bash runs rc.sh", "read s.sh"]],
    [
      "bash --init-file rc.sh",
      ["read rc.sh", "project: bash runs rc.sh", "unknown: bash reads code from its standard input"],
    ],
    ["bash --rcfile", ["unknown: bash reads code from its standard input"]],
    ["bash --version", ["reads: bash prints about itself"]],
    ["bash --help", ["reads: bash prints about itself"]],
    ["bash --norc -c 'cat a'", ["read a", "reads: cat only reads"]],
    ["bash -o pipefail -c 'cat a'", ["read a", "reads: cat only reads"]],
    ["bash -eO extglob s.sh", ["read s.sh", "project: bash runs s.sh"]],
    ["bash -c", ["unknown: bash -c without a script"]],
    ['bash "$X" a', ["read $X", "project: bash runs $X", "read a", "write a"]],
    ["bash +x s.sh", ["read s.sh", "project: bash runs s.sh"]],
    ["sh -c 'rm \"$1\"' _ f", ["write f", RM]],
  ]);
});

describe("find: roots, tests and actions", () => {
  rows([
    ["find -O2 -H . -print", ["read .", "reads: find lists files"]],
    ["find -L -P src", ["read src", "reads: find lists files"]],
    ["find -D tree src -type f", ["read src", "reads: find lists files"]],
    ["find -name '*.ts'", ["read .", "reads: find lists files"]],
    ['find . -name "$N" -type f', ["read .", "reads: find lists files"]],
    ['find . -print "$P"', ["read .", "unknown: find: an expression known only at run time"]],
    ["find . -newer ref.txt -print", ["read .", "read ref.txt", "reads: find lists files"]],
    [
      "find src -anewer ref -samefile other",
      ["read src", "read ref", "read other", "reads: find lists files"],
    ],
    ["find src -cnewer", ["read src", "reads: find lists files"]],
    ["find src -fprint out.txt", ["read src", "write out.txt", "reads: find lists files"]],
    ["find src -fprint0 out", ["read src", "write out", "reads: find lists files"]],
    ["find src -fls list.txt", ["read src", "write list.txt", "reads: find lists files"]],
    [
      "find src -fprintf out.txt '%p' -delete",
      ["read src", "write out.txt", "write src", "reads: find lists files"],
    ],
    ["find src -fprint", ["read src", "reads: find lists files"]],
    ["find . -exec", ["read .", "unknown: find -exec without a command"]],
    ["find . -okdir \\;", ["read .", "unknown: find -okdir without a command"]],
    ["find . -frobnicate", ["read .", "unknown: find -frobnicate: a primary the catalogue does not know"]],
    ["find . -newermt 2020-01-01 -print", ["read .", "reads: find lists files"]],
    ["find . -newerXY x", ["read .", "unknown: find -newerXY: a primary the catalogue does not know"]],
    ["find . -empty -maxdepth 1 -readable", ["read .", "reads: find lists files"]],
    ["find src -ok rm {} \\;", ["read src", "write src", RM, "reads: find lists files"]],
    ["find . -exec echo + \\;", ["read .", ECHO, "reads: find lists files"]],
  ]);
});

describe("xargs: options, the replace string and the command", () => {
  const piped = (item: string[], runs: string) => [
    ECHO,
    ...item,
    "unknown: rm: an item piped into xargs",
    runs,
  ];
  rows([
    ['echo a | xargs "-$O" rm', [ECHO, "unknown: xargs: an option known only at run time"]],
    ['echo a | xargs "$P" x', [ECHO, "unknown: the program is chosen at run time ($P)"]],
    ["echo a | xargs -- rm", piped(["write a"], RM)],
    ["echo a | xargs -n 1 rm", piped(["write a"], RM)],
    ["echo a | xargs -n1 rm", piped(["write a"], RM)],
    ["echo a | xargs -E END -L 2 rm", piped(["write a"], RM)],
    ["echo a | xargs --max-args=1 rm", piped(["write a"], RM)],
    ["echo a | xargs --max-procs 4 rm", piped(["write a"], RM)],
    ["echo a | xargs -0rt rm", piped(["write a"], RM)],
    ["echo a | xargs --null --no-run-if-empty --verbose rm", piped(["write a"], RM)],
    ["echo a | xargs -dX rm", piped(["write a"], RM)],
    ["echo a | xargs -P4 -s100 rm", piped(["write a"], RM)],
    [
      "echo a | xargs -a list.txt rm",
      [ECHO, "read list.txt", "write a", "unknown: rm: an item piped into xargs", RM],
    ],
    [
      "echo a | xargs --arg-file=list.txt rm",
      [ECHO, "read list.txt", "write a", "unknown: rm: an item piped into xargs", RM],
    ],
    ["echo a | xargs --frob rm", [ECHO, "unknown: xargs --frob: an option the catalogue does not know"]],
    ["echo a | xargs -q rm", [ECHO, "unknown: xargs -q: an option the catalogue does not know"]],
    ["echo a | xargs", [ECHO, ECHO]],
  ]);

  const moved = [ECHO, "read a", "write a", "unknown: mv: an item piped into xargs", "write dst", MV];
  it.each([
    ["echo a | xargs --replace=X mv X dst"],
    ["echo a | xargs -I X mv X dst"],
    ["echo a | xargs -IX mv X dst"],
    ["echo a | xargs -iX mv X dst"],
    ["echo a | xargs --replace mv {} dst"],
    ["echo a | xargs -i mv {} dst"],
  ])("%s puts the item where the replace string is, and only there", (command) => {
    expect(reasons(command)).toEqual(moved);
  });

  it("without a replace string the item goes last (mv's target): a word like {} stays itself", () => {
    expect(reasons("echo a | xargs mv {} dst")).toEqual([
      ECHO,
      "read {}",
      "write {}",
      "read dst",
      "write dst",
      "write a",
      "unknown: mv: an item piped into xargs",
      MV,
    ]);
    expect(reasons("echo a | xargs -I X mv {} dst")).toEqual([ECHO, "read {}", "write {}", "write dst", MV]);
  });
});

describe("env: options, assignments and the command", () => {
  rows([
    ['env "$P" x', ["unknown: the program is chosen at run time ($P)"]],
    ['env "-$O" rm x', ["unknown: env: an option known only at run time"]],
    ["env -- rm x", ["write x", RM]],
    ["env -S 'rm x'", ["unknown: env -S: a command split from one string"]],
    ["env --split-string='rm x'", ["unknown: env -S: a command split from one string"]],
    ["env -iS 'rm x'", ["unknown: env -S: a command split from one string"]],
    ["env -u HOME rm x", ["write x", RM]],
    ["env --unset HOME rm x", ["write x", RM]],
    ["env -C sub rm x", ["write sub/x", RM]],
    ["env --chdir sub rm x", ["write sub/x", RM]],
    ["env --chdir=sub rm x", ["write sub/x", RM]],
    ["env -C", ["reads: env prints the environment"]],
    ["env -i -0 --ignore-environment --null --debug --unset=A -uB rm x", ["write x", RM]],
    ["env -v rm x", ["write x", RM]],
    ["env --frob rm x", ["unknown: env --frob: an option the catalogue does not know"]],
    ["env -q rm x", ["unknown: env -q: an option the catalogue does not know"]],
    ["env A=1 B=2 rm x", ["write x", RM]],
    ["env", ["reads: env prints the environment"]],
    ["env -i", ["reads: env prints the environment"]],
    ["env GIT_PAGER=less git log", ["reads: git log only reads"]],
    [
      "env GIT_PAGER='rm -rf ~' git log",
      ['code-settings: sets GIT_PAGER, a command run later, to "rm -rf ~"', "reads: git log only reads"],
    ],
  ]);
});

/** Each effect with what the program does: `read src: lists`, `write src: removes files in`, `reads: find lists files`. */
const explained = (command: string) =>
  analysisOf(command).effects.map((e) =>
    e.kind === "command"
      ? `${e.via.class ?? "?"}: ${e.via.does}`
      : `${e.operation} ${e.spelled}: ${e.via.does}`,
  );

describe("sh, bash: where the options end", () => {
  rows([
    // After --, a word like -c is the script file, not the -c option.
    ["bash -- -c", ["read -c", "project: bash runs -c"]],
    // A dash inside a file name does not make the word an option (my-script.sh has a "c" in it).
    ["bash my-script.sh", ["read my-script.sh", "project: bash runs my-script.sh"]],
    // A long option takes no value: --noprofile's "o" is not -o, so s.sh is the script.
    ["bash --noprofile s.sh", ["read s.sh", "project: bash runs s.sh"]],
  ]);
});

describe("find: roots, names and actions, with what each does", () => {
  rows([
    ["find x-O2", ["read x-O2", "reads: find lists files"]],
    ["find -O2x src", ["read .", "unknown: find -O2x: a primary the catalogue does not know"]],
    ["find my-dir -print", ["read my-dir", "reads: find lists files"]],
    [
      "find . -print a-newermt X",
      ["read .", "unknown: find a-newermt: a primary the catalogue does not know"],
    ],
    ["find . -newermtx X", ["read .", "unknown: find -newermtx: a primary the catalogue does not know"]],
    // Only -fprintf takes a format after its file: after -fprint, -delete is an action.
    ["find src -fprint out -delete", ["read src", "write out", "write src", "reads: find lists files"]],
    // A dynamic word after an action is a primary known only at run time, whatever follows it.
    ['find . -print "$X" -type f', ["read .", "unknown: find: an expression known only at run time"]],
    // A value spelled like a test is still a value: the word after it is a primary.
    ['find . -printf -name "$X"', ["read .", "unknown: find: an expression known only at run time"]],
  ]);

  it("lists its roots, and -delete removes files in them", () => {
    expect(explained("find src -delete")).toEqual([
      "read src: lists",
      "write src: removes files in",
      "reads: find lists files",
    ]);
  });

  it.each(["-name", "-iname"])("%s '*.pem': a found file is judged as a sample name too", (test) => {
    expect(explained(`find src ${test} '*.pem' -exec cat {} \\;`)).toEqual([
      "read src: lists",
      "read src: reads files in",
      "read src/x.pem: reads files in",
      "reads: cat only reads",
    ]);
  });

  it.each(["-path", "-ipath", "-wholename", "-iwholename"])(
    "%s '*/secret/*': a found file is judged as a sample path too",
    (test) => {
      expect(explained(`find src ${test} '*/secret/*' -exec cat {} \\;`)).toEqual([
        "read src: lists",
        "read src: reads files in",
        "read src/secret/x: reads files in",
        "reads: cat only reads",
      ]);
    },
  );

  it("other tests' values, and a name known only at run time, name no sample", () => {
    const plain = ["read .: lists", "read .: reads files in", "reads: cat only reads"];
    expect(explained("find . -type f -exec cat {} \\;")).toEqual(plain);
    expect(explained('find . -name "$N" -exec cat {} \\;')).toEqual(plain);
  });

  rows([
    ["find src -exec rm {} \\;", ["read src", "write src", RM, "reads: find lists files"]],
    ["find src -execdir rm {} \\;", ["read src", "write src", RM, "reads: find lists files"]],
    // `+` ends the command only right after {}: the found files are its last operands.
    ["find src -exec rm {} +", ["read src", "write src", RM, "reads: find lists files"]],
    // After a word known only at run time, `+` is one more operand; a word known only at run time is itself.
    ['find . -exec echo "$X" + \\;', ["read .", ECHO, "reads: find lists files"]],
    ['find . -exec rm "$X" \\;', ["read .", "write $X", RM, "reads: find lists files"]],
  ]);

  it("-exec: only the {} word stands for the found files; the other operands are themselves", () => {
    expect(explained("find src -exec cp {} dst \\;")).toEqual([
      "read src: lists",
      "read src: reads files in",
      "write dst: puts files into",
      "none: cp does nothing beyond its operands",
      "reads: find lists files",
    ]);
  });
});

describe("xargs: options that take a value, and where the command starts", () => {
  const piped = [ECHO, "write a", "unknown: rm: an item piped into xargs", RM];
  it.each([
    ["echo a | xargs -d , rm"],
    ["echo a | xargs -P 2 rm"],
    ["echo a | xargs -s 100 rm"],
    ["echo a | xargs --delimiter , rm"],
    ["echo a | xargs --eof END rm"],
    ["echo a | xargs --max-lines 1 rm"],
    ["echo a | xargs --max-chars 100 rm"],
    ["echo a | xargs --process-slot-var N rm"],
    ["echo a | xargs -0 -- rm"],
    ["echo a | xargs --interactive rm"],
    ["echo a | xargs --exit rm"],
    ["echo a | xargs --open-tty rm"],
  ])("%s runs rm with the piped item", (command) => {
    expect(reasons(command)).toEqual(piped);
  });

  rows([
    ["echo a | xargs - x", [ECHO, "unknown: -: a program the catalogue does not know"]],
    ["echo a | xargs -0-IX rm X", [ECHO, "unknown: xargs -0-IX: an option the catalogue does not know"]],
    ["echo a | xargs -q-r rm", [ECHO, "unknown: xargs -q-r: an option the catalogue does not know"]],
    ["echo a | xargs -rq rm", [ECHO, "unknown: xargs -rq: an option the catalogue does not know"]],
    ["echo a | xargs --debug rm", [ECHO, "unknown: xargs --debug: an option the catalogue does not know"]],
    // The item as shell code: known only at run time, and fetched from nowhere.
    ["echo a | xargs sh -c", [ECHO, "unknown: sh runs shell code known only at run time"]],
    // -a without its file: nothing more is read, and the command is echo.
    ["echo a | xargs -a", [ECHO, ECHO]],
    // Nothing piped in: the item is known only at run time, and is no word of an earlier stage.
    ["xargs rm", ["unknown: rm: an item piped into xargs", RM]],
    [
      'echo a | xargs -I X mv X "$D"',
      [ECHO, "read a", "write a", "unknown: mv: an item piped into xargs", "write $D", MV],
    ],
  ]);
});

describe("env: which words are options, assignments or the command", () => {
  rows([
    ["env ./build-Site.sh", ["read ./build-Site.sh", "project: ./build-Site.sh runs ./build-Site.sh"]],
    ["env -ivS 'rm x'", ["unknown: env -S: a command split from one string"]],
    ["env -iv rm x", ["write x", RM]],
    ["env -iq rm x", ["unknown: env -iq: an option the catalogue does not know"]],
    ["env -q-i rm x", ["unknown: env -q-i: an option the catalogue does not know"]],
    ["env --utf8 rm x", ["unknown: env --utf8: an option the catalogue does not know"]],
    // A name starts with a letter or _: 9_=1 is no assignment, so it is the command.
    ["env 9_=1 rm x", ["unknown: 9_=1: a program the catalogue does not know"]],
  ]);
});
