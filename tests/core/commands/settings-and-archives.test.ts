import { describe, expect, it } from "vitest";
import { analysisOf, defaultJudge } from "../../helpers/commands.js";
import { effectLines } from "../../helpers/effect-lines.js";
import { call } from "../../helpers/judge.js";

// Programs whose own words name the files they change (src/core/commands/handlers-files.ts):
// git config (which settings file, and whether the key names a program git runs later), dd
// (`if=` read, `of=` written) and tar (the mode letter decides what is read and written). Each
// row is the whole reading, with the words the handler says and the marks it sets.

const GIT_CONFIG_FILE = "write .git/config: changes the git settings in";
const READS_GIT_CONFIG = ["read .git/config: reads", "class reads: git config only reads"];
const CODE = (key: string) =>
  `class code-settings: git config sets ${key}, which names a program git runs later`;

describe("git config: the settings file it reads or changes", () => {
  it.each([
    [
      "git config --system core.editor vim",
      ["write /etc/gitconfig: changes the git settings in", CODE("core.editor")],
    ],
    [
      "git config --global -e",
      [
        "write ~/.gitconfig: changes the git settings in",
        "class unknown: git config --edit opens an editor on the settings",
        "legacy git config --global -e",
      ],
    ],
    ["git config --local --get user.name", READS_GIT_CONFIG],
    ["git config --system --local user.name Me", [GIT_CONFIG_FILE, "class none: git config sets user.name"]],
    [
      "git config --worktree core.sparseCheckout true",
      [
        "write .git/config.worktree: changes the git settings in",
        "class none: git config sets core.sparseCheckout",
      ],
    ],
    [
      "git config --file ~/.config/git/extra alias.st status",
      ["write ~/.config/git/extra: changes the git settings in", CODE("alias.st")],
    ],
    ["git config -f ./team.cfg --list", ["read ./team.cfg: reads", "class reads: git config only reads"]],
    [
      "git config --file=./x.cfg core.pager less",
      ["write ./x.cfg: changes the git settings in", CODE("core.pager")],
    ],
    // A --file with no name after it keeps the file it had.
    ["git config --file", READS_GIT_CONFIG],
  ])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("git config: options whose value is the next word are not keys", () => {
  it.each([
    // `--type bool` is one option: `bool` is no key, so this sets core.bare (two positionals).
    ["git config --type bool core.bare true", [GIT_CONFIG_FILE, "class none: git config sets core.bare"]],
    // `--default none` leaves one positional: a read, not a write of `none`.
    ["git config --default none --get user.name", READS_GIT_CONFIG],
    ["git config --comment 'why' user.name Me", [GIT_CONFIG_FILE, "class none: git config sets user.name"]],
    ["git config --blob HEAD:.gitmodules --list", READS_GIT_CONFIG],
    ["git config --value x core.pager", READS_GIT_CONFIG],
  ])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("git config: the operation named, over the count of positionals", () => {
  it.each([
    "git config --get-all remote.origin.url",
    "git config --get-regexp '^alias'",
    "git config -l",
    "git config get user.name",
    "git config list",
    "git config --show-origin --list",
    "git config --name-only --get-regexp x",
    "git config -z --list",
    "git config --type=path --get core.hooksPath",
    "git config --default=x --get a.b",
    // One key, no value: a read; no words at all: a read.
    "git config core.pager",
    "git config",
  ])("%s only reads", (command) => {
    expect(effectLines(command)).toEqual(READS_GIT_CONFIG);
  });

  it.each([
    ["git config --add remote.origin.fetch x", "class none: git config sets remote.origin.fetch"],
    ["git config --replace-all a.b c", "class none: git config sets a.b"],
    ["git config --unset user.name", "class none: git config sets user.name"],
    ["git config --unset-all core.hooksPath", CODE("core.hooksPath")],
    ["git config --rename-section a b", "class none: git config sets a"],
    ["git config --remove-section a", "class none: git config sets a"],
    ["git config set core.pager less", CODE("core.pager")],
    ["git config unset user.name", "class none: git config sets user.name"],
    // A write named anywhere wins over a read named before or after it.
    ["git config --list --unset user.name", "class none: git config sets user.name"],
    ["git config --unset user.name --list", "class none: git config sets user.name"],
    ["git config --bool core.bare true", "class none: git config sets core.bare"],
    // A write with no key names no setting.
    ["git config --unset", "class none: git config sets a setting"],
  ])("%s writes", (command, cls) => {
    expect(effectLines(command)).toEqual([GIT_CONFIG_FILE, cls]);
  });

  it.each(["--edit", "-e", "edit"])(
    "git config %s opens an editor: the file is written, the rest unknown",
    (word) => {
      expect(effectLines(`git config ${word}`)).toEqual([
        GIT_CONFIG_FILE,
        "class unknown: git config --edit opens an editor on the settings",
        `legacy git config ${word}`,
      ]);
    },
  );

  it.each([
    ["git config --frobnicate a.b", "git config --frobnicate: an option the catalogue does not know"],
    ["git config -x a.b", "git config -x: an option the catalogue does not know"],
    ['git config "$K" x', "git config: a word known only at run time"],
  ])("%s is unknown, read the old way", (command, why) => {
    expect(effectLines(command)).toEqual([`class unknown: ${why}`, `legacy ${command}`]);
  });
});

describe("dd: if= is read, of= is written, other operands are settings", () => {
  it.each([
    [
      "dd if=in.img of=out.img bs=4M status=progress",
      ["read in.img: reads", "write out.img: writes", "class none: dd copies bytes"],
    ],
    ["dd of=x if=in.img", ["write x: writes", "read in.img: reads", "class none: dd copies bytes"]],
    ['dd of="$OUT" if=in.img', ["write $OUT: writes", "read in.img: reads", "class none: dd copies bytes"]],
    [
      "dd if=in.img count",
      [
        "read in.img: reads",
        "class unknown: dd count: an operand the catalogue does not know",
        "legacy dd if=in.img count",
      ],
    ],
  ])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

const PACKS = "class none: tar packs files";
const UNPACKS = ["write .: unpacks into (place)", "class none: tar unpacks an archive"];
const LISTS = "class reads: tar lists an archive";

describe("tar: long options", () => {
  it.each([
    ["tar --extract --file=a.tar", ["read a.tar: reads", ...UNPACKS]],
    ["tar --get --file a.tar one.txt", ["read a.tar: reads", ...UNPACKS]],
    ["tar --list --file=a.tar", ["read a.tar: reads", LISTS]],
    ["tar --list --file a.tar", ["read a.tar: reads", LISTS]],
    ["tar --create --file out.tar src", ["write out.tar: writes", "read src: packs (place)", PACKS]],
    ["tar --append -f a.tar new.txt", ["write a.tar: writes", "read new.txt: packs (place)", PACKS]],
    ["tar --update -f a.tar new.txt", ["write a.tar: writes", "read new.txt: packs (place)", PACKS]],
    // --file with nothing after it names no archive.
    ["tar --create --file", [PACKS]],
    ["tar --files-from list.txt -cf o.tar", ["read list.txt: reads", "write o.tar: writes", PACKS]],
    ["tar --files-from=list.txt -cf o.tar", ["read list.txt: reads", "write o.tar: writes", PACKS]],
    [
      "tar --exclude-from ex.txt -cf o.tar src",
      ["read ex.txt: reads", "write o.tar: writes", "read src: packs (place)", PACKS],
    ],
    [
      "tar -cf out.tar --exclude-from=ex.txt src",
      ["read ex.txt: reads", "write out.tar: writes", "read src: packs (place)", PACKS],
    ],
    // Options that take a value: the value is not a file packed.
    ["tar --exclude .git -czf o.tgz src", ["write o.tgz: writes", "read src: packs (place)", PACKS]],
    ["tar --exclude=.git -czf o.tgz src", ["write o.tgz: writes", "read src: packs (place)", PACKS]],
    [
      "tar --owner root --group root -cf o.tar src",
      ["write o.tar: writes", "read src: packs (place)", PACKS],
    ],
    ["tar --strip-components 1 -xf a.tar", ["read a.tar: reads", ...UNPACKS]],
    ["tar --transform 's/a/b/' -cf o.tar src", ["write o.tar: writes", "read src: packs (place)", PACKS]],
    ["tar --verbose -cf o.tar src", ["write o.tar: writes", "read src: packs (place)", PACKS]],
    // --directory moves where members are packed from and unpacked into.
    ["tar --create --directory=src .", ["read src/.: packs (place)", PACKS]],
    [
      "tar --directory out --extract",
      ["write out/.: unpacks into (place)", "class none: tar unpacks an archive"],
    ],
    ["tar -x --directory out", ["write out/.: unpacks into (place)", "class none: tar unpacks an archive"]],
  ])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });

  it.each([
    ["tar --extract --to-command='sh -c id' -f a.tar", "--to-command"],
    ["tar --checkpoint-action=exec=id -cf o.tar x", "--checkpoint-action"],
    ["tar --info-script=x.sh -cf o.tar x", "--info-script"],
    ["tar --new-volume-script=x.sh -cf o.tar x", "--new-volume-script"],
    ["tar --rsh-command=/bin/x -cf h:o.tar x", "--rsh-command"],
    ["tar --rmt-command=/bin/x -cf o.tar x", "--rmt-command"],
    ["tar --use-compress-program zstd -cf o.tar x", "--use-compress-program"],
    ["tar -c --use-compress-program=zstd -f a.tar src", "--use-compress-program"],
    // tar takes any unambiguous prefix of a long option.
    ["tar -xf a.tar --to-comm=sh", "--to-comm"],
    ["tar -c --use-compress=cat -f a.tar src", "--use-compress"],
    ["tar --checkpoint-a=exec=id -cf o.tar x", "--checkpoint-a"],
  ])("%s runs a program", (command, name) => {
    expect(effectLines(command)).toEqual([`class unknown: tar ${name}: runs a program`, `legacy ${command}`]);
  });
});

describe("tar: short options and the old style", () => {
  it.each([
    ["tar xzf a.tgz", ["read a.tgz: reads", ...UNPACKS]],
    ["tar czf o.tgz src", ["write o.tgz: writes", "read src: packs (place)", PACKS]],
    ["tar tf a.tar", ["read a.tar: reads", LISTS]],
    ["tar -tvf a.tar", ["read a.tar: reads", LISTS]],
    ["tar -t", [LISTS]],
    ["tar -x", UNPACKS],
    ["tar -c src", ["read src: packs (place)", PACKS]],
    ["tar -cf out.tar $SRC", ["write out.tar: writes", "read $SRC: packs (place)", PACKS]],
    ["tar -cCsrc .", ["read src/.: packs (place)", PACKS]],
    ["tar -c -C src .", ["read src/.: packs (place)", PACKS]],
    ["tar -xf a.tar -T list.txt", ["read list.txt: reads", "read a.tar: reads", ...UNPACKS]],
    [
      "tar -cf out.tar -Xex.txt src",
      ["read ex.txt: reads", "write out.tar: writes", "read src: packs (place)", PACKS],
    ],
    // -T or -X at the end names no file.
    ["tar -xf a.tar -T", ["read a.tar: reads", ...UNPACKS]],
    ["tar -cf o.tar -X", ["write o.tar: writes", PACKS]],
    // -b, -N, -V, -K take a value that is no member.
    ["tar -cf o.tar -b 20 src", ["write o.tar: writes", "read src: packs (place)", PACKS]],
    ["tar -cf o.tar -N 2020-01-01 src", ["write o.tar: writes", "read src: packs (place)", PACKS]],
    ["tar -cf o.tar -V label src", ["write o.tar: writes", "read src: packs (place)", PACKS]],
    ["tar -xf a.tar -K start", ["read a.tar: reads", ...UNPACKS]],
  ])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });

  it.each([
    ["tar -F x.sh -cf o.tar src", "tar -F: runs a program"],
    ["tar -cf o.tar -I zstd src", "tar -I: runs a program"],
    ["tar -v src", "tar without a mode (c, x, t, r or u)"],
    ["tar --exclude-from", "tar without a mode (c, x, t, r or u)"],
    ["tar -cf out.tar --exclude=$PAT src", "tar: an option known only at run time"],
  ])("%s is unknown", (command, why) => {
    expect(effectLines(command)).toEqual([`class unknown: ${why}`, `legacy ${command}`]);
  });
});

describe("git config: every flag that changes only how settings print", () => {
  it.each([
    "--show-scope",
    "--null",
    "--int",
    "--bool-or-int",
    "--path",
    "--expiry-date",
    "--includes",
    "--no-includes",
    "--all",
    "--fixed-value",
    "--no-type",
    "--get-urlmatch",
  ])("git config %s --get a.b only reads", (flag) => {
    expect(effectLines(`git config ${flag} --get a.b`)).toEqual(READS_GIT_CONFIG);
  });
});

describe("dd: the file named after if= or of= is the one judged", () => {
  const judge = (command: string) => defaultJudge().judge("tools/call", call("run_command", { command }));

  it.each([
    ["dd if=~/.ssh/id_rsa of=key.bak", "paths.deny_read ~/.ssh/**"],
    // A name known only at run time is still the one after if=: $HOME is the server's home.
    ["dd if=$HOME/.ssh/id_rsa of=key.bak", "paths.deny_read ~/.ssh/**"],
  ])("%s reads the key, and is denied", (command, rule) => {
    expect(judge(command)).toMatchObject({ verdict: "deny", rule });
  });

  it("the word each file is judged by is what follows if= or of=", () => {
    const words = analysisOf("dd if=in.img of=out.img bs=4M").effects.map((e) => [e.operation, e.via.word]);
    expect(words).toEqual([
      ["read", "in.img"],
      ["write", "out.img"],
      ["exec", undefined],
    ]);
  });

  it("an operand with nothing before its = sets nothing", () => {
    expect(effectLines("dd =x if=a of=b")).toEqual([
      "read a: reads",
      "write b: writes",
      "class none: dd copies bytes",
    ]);
  });
});

describe("tar: words that look like options or modes but are not", () => {
  it.each([
    // A first word with a dot is a file, not old-style mode letters.
    ["tar notes.txt", ["class unknown: tar without a mode (c, x, t, r or u)", "legacy tar notes.txt"]],
    // -K takes a value even when the archive is being made.
    ["tar -cf o.tar -K start a", ["write o.tar: writes", "read a: packs (place)", PACKS]],
    // -C or --directory at the end names no folder.
    ["tar -x -C", UNPACKS],
    ["tar -xf a.tar --directory", ["read a.tar: reads", ...UNPACKS]],
    // A long option tar does not know takes no value, even if a known name is inside it.
    ["tar -cf o.tar ---file a", ["write o.tar: writes", "read a: packs (place)", PACKS]],
    ["tar -xf a.tar ---to-command=sh", ["read a.tar: reads", ...UNPACKS]],
    // --checkpoint is an option of its own, not a prefix of --checkpoint-action.
    ["tar --checkpoint=10 -cf o.tar x", ["write o.tar: writes", "read x: packs (place)", PACKS]],
  ])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});
