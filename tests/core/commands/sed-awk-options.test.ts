import { describe, expect, it } from "vitest";
import { reasons } from "../../helpers/command-reasons.js";

// sed's and awk's own options (src/core/commands/handlers-scripts.ts): which word is the script,
// which are files, and when the script is in a file or known only at run time. Each row is the
// whole list of effects with their reasons.

const rows = (list: [string, string[]][]) =>
  it.each(list)("%s", (command, effects) => {
    expect(reasons(command)).toEqual(effects);
  });

const READS = "reads: sed only reads";
const IN_PLACE = "none: sed edits files in place";
const SED_F = "unknown: sed -f: the script is in a file";
const AWK_READS = "reads: awk only reads";

describe("sed's long options", () => {
  rows([
    ["sed --expression=p f", ["read f", READS]],
    ["sed --expression 'w out' f", ["write out", "read f", READS]],
    ["sed --expr='w out' f", ["write out", "read f", READS]],
    ["sed --exp=p f", ["read f", READS]],
    ["sed --expression", [READS]],
    ["sed --file=s.sed f", ["read s.sed", SED_F]],
    ["sed --file s.sed f", ["read s.sed", SED_F]],
    ["sed --fi=s.sed f", ["read s.sed", SED_F]],
    ["sed --file", [SED_F]],
    ["sed --in-place 's/a/b/' f", ["read f", "write f", IN_PLACE]],
    ["sed --in-pl=.bak 's/a/b/' f", ["read f", "write f", IN_PLACE]],
    ["sed --in 's/a/b/' f", ["unknown: sed --in: an option the catalogue does not know"]],
    ["sed --e=p f", ["unknown: sed --e: an option the catalogue does not know"]],
    ["sed --sandbox 'w out' f", ["read f", READS]],
    ["sed --sandbox 'r in' f", ["read f", READS]],
    ["sed --sandbox 'e date' f", ["read f", READS]],
    ["sed --line-length 20 p f", ["read f", READS]],
    ["sed --quiet --regexp-extended --posix --debug --null-data p f", ["read f", READS]],
    [
      "sed --silent --separate --unbuffered --follow-symlinks --zero-terminated --binary p f",
      ["read f", READS],
    ],
    ["sed --qu p f", ["read f", READS]],
    ["sed --frob p f", ["unknown: sed --frob: an option the catalogue does not know"]],
  ]);
});

describe("sed's short options", () => {
  rows([
    ["sed -f s.sed f", ["read s.sed", SED_F]],
    ["sed -fs.sed f", ["read s.sed", SED_F]],
    ["sed -nf s.sed f", ["read s.sed", SED_F]],
    ["sed -f", [SED_F]],
    ["sed -ep f", ["read f", READS]],
    ["sed -e 'w out' -e 'r in' f", ["write out", "read in", "read f", READS]],
    ["sed -l 20 p f", ["read f", READS]],
    ["sed -l20 p f", ["read f", READS]],
    ["sed -E -s -u -z -b -r -c p f", ["read f", READS]],
    ["sed -nE p f", ["read f", READS]],
    ["sed -q p f", ["unknown: sed -q: an option the catalogue does not know"]],
    ["sed -nq p f", ["unknown: sed -q: an option the catalogue does not know"]],
    ["sed -n -i.bak p f", ["read f", "write f", IN_PLACE]],
    ["sed -ni p f", ["read f", "write f", IN_PLACE]],
    ['sed "-$O" p f', ["unknown: sed: an option known only at run time"]],
  ]);
});

describe("sed's script and files", () => {
  rows([
    ["sed", ["unknown: sed without a script"]],
    ["sed -n", ["unknown: sed without a script"]],
    ["sed -e", ["unknown: sed without a script"]],
    ['sed "$S" f', ["unknown: sed: a script known only at run time"]],
    ["sed 's/a' f", ["unknown: sed: an s command that does not end"]],
    ["sed 'k' f", ['unknown: sed: the command "k", which the catalogue does not know']],
    ["sed -i p", [IN_PLACE]],
    ["sed p", [READS]],
    ["sed p a b", ["read a", "read b", READS]],
    ["sed -- p f", ["read f", READS]],
    ["sed 'e' f", ["unknown: sed: the e command runs the text it edits"]],
    ["sed 'e rm x' f", ["write x", "none: rm does nothing beyond its operands", "read f", READS]],
  ]);
});

it("after --, a word like -f is a file, not sed's option", () => {
  // Which paths a word starting with "-" names is the word reader's business (today it reads such
  // a word as an option's glued value, even after --): here only that it is not read as -f.
  expect(reasons("sed -n -- p -f")).toEqual(expect.arrayContaining([READS]));
  expect(reasons("sed -n -- p -f")).not.toContain(SED_F);
  expect(reasons("awk -- '{print}' -f")).toEqual(expect.arrayContaining([AWK_READS]));
  expect(reasons("awk -- '{print}' -f")).not.toContain("project: awk runs a program from a file");
});

describe("awk's options", () => {
  rows([
    ["awk -- '{print}' f", ["read f", AWK_READS]],
    ["awk \"-$O\" '{print}' f", ["unknown: awk: an option known only at run time"]],
    ["awk --source='{print}' f", ["read f", AWK_READS]],
    ["awk --source '{print}' f", ["read f", AWK_READS]],
    ["awk --source='{system(\"id\")}' f", ["unknown: awk: the program calls system()"]],
    ["awk --file=p.awk f", ["read p.awk", "project: awk runs p.awk", "read f"]],
    ["awk --file p.awk f", ["read p.awk", "project: awk runs p.awk", "read f"]],
    ["awk --include lib.awk f", ["read lib.awk", "project: awk runs lib.awk", "read f"]],
    ["awk --load ext", ["read ext", "project: awk runs ext"]],
    ["awk --file", ["project: awk runs a program from a file"]],
    ["awk --field-separator=: '{print}' f", ["read f", AWK_READS]],
    ["awk --field-separator : '{print}' f", ["read f", AWK_READS]],
    ["awk --assign x=1 '{print}' f", ["read f", AWK_READS]],
    ["awk --sandbox --posix --traditional --re-interval '{print}' f", ["read f", AWK_READS]],
    ["awk --characters-as-bytes --lint --csv '{print}' f", ["read f", AWK_READS]],
    ["awk --frob '{print}' f", ["unknown: awk --frob: an option the catalogue does not know"]],
    ["awk -F : '{print}' f", ["read f", AWK_READS]],
    ["awk -F: '{print}' f", ["read f", AWK_READS]],
    ["awk -v x=1 '{print}' f", ["read f", AWK_READS]],
    ["awk -vx=1 '{print}' f", ["read f", AWK_READS]],
    ["awk -f p.awk f", ["read p.awk", "project: awk runs p.awk", "read f"]],
    ["awk -fp.awk f", ["read p.awk", "project: awk runs p.awk", "read f"]],
    ["awk -E p.awk f", ["read p.awk", "project: awk runs p.awk", "read f"]],
    ["awk -i lib.awk f", ["read lib.awk", "project: awk runs lib.awk", "read f"]],
    ["awk -l ext f", ["read ext", "project: awk runs ext", "read f"]],
    ["awk -f", ["project: awk runs a program from a file"]],
    ["awk -e '{print}' f", ["read f", AWK_READS]],
    ["awk -e'{print}' f", ["read f", AWK_READS]],
    ["awk -e", ["unknown: awk without a program"]],
    ["awk -bcn '{print}' f", ["read f", AWK_READS]],
    ["awk -q '{print}' f", ["unknown: awk -q: an option the catalogue does not know"]],
    ["awk -bq '{print}' f", ["unknown: awk -bq: an option the catalogue does not know"]],
  ]);
});

describe("awk's program and operands", () => {
  rows([
    ["awk '{print}' x=1 f", ["read f", AWK_READS]],
    ["awk '{print}' 1x=1 f", ["read 1x=1", "read 1", "read f", AWK_READS]],
    ['awk "$P" f', ["unknown: awk: a program known only at run time"]],
    ["awk", ["unknown: awk without a program"]],
    // After the program, `-f` is a file awk reads.
    ["awk '{print $1}' -f", ["read -f", AWK_READS]],
    ["awk 'BEGIN{system(\"id\")}'", ["unknown: awk: the program calls system()"]],
    ["awk '{print | \"sh\"}' f", ["unknown: awk: the program pipes to or from a command"]],
  ]);

  it("a program that does more than read is kept for the old reading", () => {
    expect(reasons("awk '{print > \"out\"}' f")).toEqual(["unknown: awk: the program prints into a file"]);
  });
});

describe("sed: where its options end, and what a lone word is", () => {
  rows([
    // --f is too short to be --file (it could as well be --follow-symlinks): the script stays s/a/b/.
    ["sed --f s/a/b/ f", ["read f", READS]],
    ["sed --quiet s/a/b/ f", ["read f", READS]],
    ['sed s/a/b/ "$F"', ["read $F", READS]],
    // A lone - is no option: without -e it is the script, and "-" is no sed command.
    ["sed -", ['unknown: sed: the command "-", which the catalogue does not know']],
    // After --, words that look like options are files, even when known only at run time.
    ["sed s/a/b/ -- -x", ["read -x", READS]],
    ['sed s/a/b/ -- "-$F"', ["read -$F", READS]],
  ]);
});

describe("awk: a lone dash, glued letters and assignments", () => {
  rows([
    // A lone - is standard input, an operand, not an option.
    ["awk -f prog.awk -", ["read prog.awk", "project: awk runs prog.awk"]],
    ["awk -q-b '{print}' f", ["unknown: awk -q-b: an option the catalogue does not know"]],
    // A variable's name may have several letters: ab=1 sets a variable, it is not a file.
    ["awk '{print}' ab=1 f", ["read f", AWK_READS]],
  ]);
});
